// The authorization page remembers who signed in with a signed cookie `accountId.expiresAt.mac`, so a
// second authorization only asks for consent. The mac covers the password hash: changing the password
// ends every such session. Disabled or suspended users lose theirs at once.
import { getAccount, getUser } from "../../store/accounts.ts";
import type { Store } from "../../store/db.ts";
import type { AccountRecord, UserRecord } from "../../store/records.ts";
import { mayUseLogin } from "./sign-in.ts";
import { sign, validSignature } from "./signing.ts";

export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

export function sessionCookieValue(secret: string, account: AccountRecord, user: UserRecord, now = Date.now()): string {
  const expires = String(now + SESSION_LIFETIME_MS);
  return `${account.id}.${expires}.${sign(secret, "session", account.id, expires, user.passwordHash)}`;
}

export function sessionFromCookie(store: Store, secret: string, value: string | undefined, now = Date.now()): { account: AccountRecord; user: UserRecord } | null {
  const match = value ? /^(\d{18})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!match || Number(match[2]) <= now) return null;
  const [, accountId, expires, mac] = match as unknown as [string, string, string, string];
  const account = getAccount(store, accountId);
  const user = getUser(store, accountId);
  if (!account || !user || !mayUseLogin(account, user)) return null;
  return validSignature(secret, mac, "session", accountId, expires, user.passwordHash) ? { account, user } : null;
}
