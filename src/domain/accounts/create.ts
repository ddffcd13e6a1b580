// Creating local accounts: used by API registration and by the operator CLI.
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { Unprocessable, type ErrorDetails } from "../../lib/errors.ts";
import { findUserByEmail, insertAccount, usernameTaken } from "../../store/accounts.ts";
import type { AccountRecord, RoleName, UserRecord } from "../../store/records.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { hashPassword } from "../auth/password.ts";

const generateRsa = promisify(generateKeyPair);

export const USERNAME_PATTERN = /^[a-z0-9_]+$/i;
const RESERVED_USERNAMES = new Set(["admin", "support", "help", "root", "webmaster", "administrator", "mod", "moderator", "instance", "actor", "inbox"]);
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/** Validation in Mastodon's `details` shape (API.md §3.6); throws Unprocessable listing every problem. */
export function validateNewAccount(deps: Deps, input: NewLocalAccount): void {
  const details: ErrorDetails = {};
  const add = (field: string, error: string, description: string) => (details[field] ??= []).push({ error, description });
  const { username, email, password } = input;
  if (!username) add("username", "ERR_BLANK", "can't be blank");
  else if (!USERNAME_PATTERN.test(username)) add("username", "ERR_INVALID", "must contain only letters, numbers and underscores");
  else if (username.length > ACCOUNT_LIMITS.maxUsernameLength) add("username", "ERR_TOO_LONG", `is too long (maximum is ${ACCOUNT_LIMITS.maxUsernameLength} characters)`);
  else if (!input.allowReserved && RESERVED_USERNAMES.has(username.toLowerCase())) add("username", "ERR_RESERVED", "is reserved");
  else if (usernameTaken(deps.store, username)) add("username", "ERR_TAKEN", "is already taken");
  if (!email) add("email", "ERR_BLANK", "can't be blank");
  else if (email.length > ACCOUNT_LIMITS.maxEmailLength || !EMAIL_PATTERN.test(email)) add("email", "ERR_INVALID", "is invalid");
  else if (findUserByEmail(deps.store, email)) add("email", "ERR_TAKEN", "is already taken");
  if (!password) add("password", "ERR_BLANK", "can't be blank");
  else if (password.length < ACCOUNT_LIMITS.minPasswordLength) add("password", "ERR_TOO_SHORT", `is too short (minimum is ${ACCOUNT_LIMITS.minPasswordLength} characters)`);
  else if (password.length > ACCOUNT_LIMITS.maxPasswordLength) add("password", "ERR_TOO_LONG", `is too long (maximum is ${ACCOUNT_LIMITS.maxPasswordLength} characters)`);
  const fields = Object.keys(details);
  if (fields.length) {
    const summary = fields.map((f) => `${f[0]!.toUpperCase()}${f.slice(1)} ${details[f]![0]!.description}`).join(", ");
    throw new Unprocessable(`Validation failed: ${summary}`, details);
  }
}

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

/** Validates, then writes the account and its user in one durable transaction. */
export async function createLocalAccount(deps: Deps, input: NewLocalAccount): Promise<{ account: AccountRecord; user: UserRecord }> {
  validateNewAccount(deps, input);
  const [passwordHash, keys] = await Promise.all([
    hashPassword(input.password),
    generateRsa("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    }),
  ]);
  const now = Date.now();
  const id = newId(now);
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
    publicKeyPem: keys.publicKey,
    privateKeyPem: keys.privateKey,
    statusesCount: 0,
    followersCount: 0,
    followingCount: 0,
    lastStatusAt: null,
    suspended: false,
    silenced: false,
    memorial: false,
  };
  const user: UserRecord = {
    v: 1,
    accountId: id,
    email: input.email,
    passwordHash,
    role: input.role ?? "User",
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
  await deps.store.write(() => {
    // Checked again inside the transaction: two concurrent sign-ups for one name cannot both win.
    if (usernameTaken(deps.store, input.username) || findUserByEmail(deps.store, input.email)) {
      throw new Unprocessable("Validation failed: Username or e-mail is already taken", {
        username: [{ error: "ERR_TAKEN", description: "is already taken" }],
      });
    }
    insertAccount(deps.store, account, user);
  });
  return { account, user };
}
