// Password sign-in shared by the authorization page and the password grant. The login is an e-mail address
// or a local username. Unknown logins still cost one password verification, so that response times do not
// tell which accounts exist.
import { randomSecret } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { findAccountByAcct, findUserByEmail, getAccount, getUser } from "../../store/accounts.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";

export type SignInResult =
  | { ok: true; account: AccountRecord; user: UserRecord }
  | { ok: false; reason: "invalid" | "disabled" };

const MAX_PASSWORD_INPUT = 1024;
let decoyHash: Promise<string> | null = null;

function findUser(store: Store, login: string): UserRecord | undefined {
  if (login.length > ACCOUNT_LIMITS.maxEmailLength) return undefined;
  if (login.includes("@") && !login.startsWith("@")) return findUserByEmail(store, login);
  const account = findAccountByAcct(store, login.replace(/^@/, ""), null);
  return account ? getUser(store, account.id) : undefined;
}

/**
 * Whom a sign-in attempt is for, as rate limits count it: the account the login names (so its username and
 * its e-mail address share one allowance), else the login itself.
 */
export function signInSubject(store: Store, login: string): string {
  const trimmed = login.trim();
  return findUser(store, trimmed)?.accountId ?? `login:${trimmed.toLowerCase().slice(0, ACCOUNT_LIMITS.maxEmailLength)}`;
}

/** A user may sign in unless the login is disabled or the account suspended. */
export function mayUseLogin(account: AccountRecord, user: UserRecord): boolean {
  return !user.disabled && !account.suspended;
}

export async function signIn(store: Store, login: string, password: string): Promise<SignInResult> {
  const user = findUser(store, login.trim());
  const account = user ? getAccount(store, user.accountId) : undefined;
  const tooLong = password.length > MAX_PASSWORD_INPUT;
  decoyHash ??= hashPassword(randomSecret());
  const hash = user && account && !tooLong ? user.passwordHash : await decoyHash;
  const matches = await verifyPassword(tooLong ? "" : password, hash);
  if (!matches || !user || !account || tooLong) return { ok: false, reason: "invalid" };
  if (!mayUseLogin(account, user)) return { ok: false, reason: "disabled" };
  return { ok: true, account, user };
}
