// Creating local accounts: used by API registration and by the operator CLI. Preparing (validation,
// password hashing, key generation) is async and happens before the write; inserting happens inside the
// caller's one write transaction, so a registration can issue its token in that same transaction.
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { findUserByEmail, insertAccount, usernameTaken } from "../../store/accounts.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { recordEvent } from "../events.ts";
import { hashPassword } from "../auth/password.ts";
import { isValidEmail, normaliseEmail } from "./email.ts";
import { Problems, tooLong } from "./validation.ts";
import type { AccountKeysRecord, AccountRecord, RoleName, UserRecord } from "../../model/accounts.ts";

const generateRsa = promisify(generateKeyPair);

export const USERNAME_PATTERN = /^[a-z0-9_]+$/i;
const RESERVED_USERNAMES = new Set(["admin", "support", "help", "root", "webmaster", "administrator", "mod", "moderator", "instance", "actor", "inbox"]);
const TAKEN = "has already been taken";

export interface NewLocalAccount {
  username: string;
  email: string;
  password: string;
  role?: RoleName;
  approved: boolean;
  confirmed: boolean;
  locale?: string;
  reason?: string | null;
  createdByAppId?: string | null;
  /** Operator-created accounts may use reserved names (tootctl does too). */
  allowReserved?: boolean;
}

/**
 * Seeding benchmark instances only (bench/seed.ts; no route or CLI command passes one): a password hash and
 * key pair computed once and shared by every account created with them. argon2id and a 2048-bit RSA key per
 * account would make seeding 10,000 accounts take most of an hour.
 */
export interface SharedSeedCredentials {
  passwordHash: string;
  keys: AccountKeysRecord;
}

export interface PreparedAccount {
  account: AccountRecord;
  user: UserRecord;
  keys: AccountKeysRecord;
}

/** Adds the username, e-mail and password problems of a new account to `problems`. */
export function checkNewAccount(deps: Deps, input: NewLocalAccount, problems: Problems): void {
  const { username, password } = input;
  const email = normaliseEmail(input.email ?? "");
  if (!username) problems.add("username", "ERR_BLANK", "can't be blank");
  else if (!USERNAME_PATTERN.test(username)) problems.add("username", "ERR_INVALID", "must contain only letters, numbers and underscores");
  else if (username.length > ACCOUNT_LIMITS.maxUsernameLength) problems.add("username", "ERR_TOO_LONG", tooLong(ACCOUNT_LIMITS.maxUsernameLength));
  else if (!input.allowReserved && RESERVED_USERNAMES.has(username.toLowerCase())) problems.add("username", "ERR_RESERVED", "is reserved");
  else if (usernameTaken(deps.store, username)) problems.add("username", "ERR_TAKEN", TAKEN);
  if (!email) problems.add("email", "ERR_BLANK", "can't be blank");
  else if (!isValidEmail(email)) problems.add("email", "ERR_INVALID", "is invalid");
  else if (findUserByEmail(deps.store, email)) problems.add("email", "ERR_TAKEN", TAKEN);
  if (!password) problems.add("password", "ERR_BLANK", "can't be blank");
  else if (password.length < ACCOUNT_LIMITS.minPasswordLength) problems.add("password", "ERR_TOO_SHORT", `is too short (minimum is ${ACCOUNT_LIMITS.minPasswordLength} characters)`);
  else if (password.length > ACCOUNT_LIMITS.maxPasswordLength) problems.add("password", "ERR_TOO_LONG", tooLong(ACCOUNT_LIMITS.maxPasswordLength));
}

/** Validation in Mastodon's `details` shape (API.md §3.6); throws Unprocessable listing every problem. */
export function validateNewAccount(deps: Deps, input: NewLocalAccount): void {
  const problems = new Problems();
  checkNewAccount(deps, input, problems);
  problems.throwIfAny();
}

/** What every new account starts with, local or remote: no statuses or follows yet, in good standing. */
export const FRESH_ACCOUNT_STATE = {
  statusesCount: 0,
  followersCount: 0,
  followingCount: 0,
  lastStatusAt: null,
  suspended: false,
  silenced: false,
} as const satisfies Partial<AccountRecord>;

export function localAccountUrls(base: string, username: string) {
  const actor = `${base}/users/${username}`;
  return {
    uri: actor,
    url: `${base}/@${username}`,
    inbox: `${actor}/inbox`,
    sharedInbox: `${base}/inbox`,
    outbox: `${actor}/outbox`,
    followersUrl: `${actor}/followers`,
    followingUrl: `${actor}/following`,
  };
}

/** A 2048-bit RSA key pair in PEM, as an ActivityPub actor's. */
export function generateAccountKeys(): Promise<{ publicKey: string; privateKey: string }> {
  return generateRsa("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

/** Builds the records of a new account (hash and key pair included) without writing anything. */
export async function prepareLocalAccount(deps: Deps, input: NewLocalAccount, seeded?: SharedSeedCredentials): Promise<PreparedAccount> {
  const [passwordHash, keys] = seeded
    ? [seeded.passwordHash, { publicKey: seeded.keys.publicKeyPem, privateKey: seeded.keys.privateKeyPem }]
    : await Promise.all([hashPassword(input.password), generateAccountKeys()]);
  const now = Date.now();
  const id = newId(now);
  const role = input.role ?? "User";
  const account: AccountRecord = {
    v: 1,
    id,
    username: input.username,
    domain: null,
    displayName: "",
    note: "",
    noteSource: "",
    fields: [],
    locked: false,
    bot: false,
    group: false,
    discoverable: true,
    indexable: true,
    hideCollections: false,
    avatarUrl: null,
    avatarDescription: "",
    headerUrl: null,
    headerDescription: "",
    createdAt: now,
    ...localAccountUrls(deps.config.url, input.username),
    ...FRESH_ACCOUNT_STATE,
    memorial: false,
    role,
  };
  const user: UserRecord = {
    v: 1,
    accountId: id,
    email: normaliseEmail(input.email),
    passwordHash,
    role,
    approved: input.approved,
    confirmedAt: input.confirmed ? now : null,
    disabled: false,
    locale: input.locale ?? "en",
    reason: input.reason ?? null,
    createdAt: now,
    createdByAppId: input.createdByAppId ?? null,
    privacy: "public",
    sensitive: false,
    language: null,
  };
  const accountKeys: AccountKeysRecord = { v: 1, publicKeyPem: keys.publicKey, privateKeyPem: keys.privateKey };
  return { account, user, keys: accountKeys };
}

/**
 * Inside a write: inserts a prepared account and records `account.created`. Uniqueness is checked again
 * here, in the transaction, so two concurrent sign-ups for one name or address cannot both win.
 */
export function insertLocalAccount(deps: Pick<Deps, "store" | "jobs">, prepared: PreparedAccount): void {
  const { store } = deps;
  const problems = new Problems();
  if (usernameTaken(store, prepared.account.username)) problems.add("username", "ERR_TAKEN", TAKEN);
  if (findUserByEmail(store, prepared.user.email)) problems.add("email", "ERR_TAKEN", TAKEN);
  problems.throwIfAny();
  insertAccount(store, prepared.account, prepared.user, prepared.keys);
  recordEvent(deps, "account.created", { accountId: prepared.account.id });
}

/** Validates, then writes the account and its user in one durable transaction. */
export async function createLocalAccount(deps: Deps, input: NewLocalAccount, seeded?: SharedSeedCredentials): Promise<PreparedAccount> {
  validateNewAccount(deps, input);
  const prepared = await prepareLocalAccount(deps, input, seeded);
  await deps.store.write(() => insertLocalAccount(deps, prepared));
  return prepared;
}
