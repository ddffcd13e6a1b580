// The one-time links of confirmation and password-reset mails. A token is 32 random bytes, stored only as its
// SHA-256 digest with its purpose, account, expiry and a stamp of what it was issued for (the address to
// confirm, a digest of the password it may replace): once that has changed, the token is worthless.
import { randomSecret, sha256 } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { getUserToken, putUserToken, sweepExpiredUserTokens } from "../../store/user-tokens.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";
import type { UserTokenPurpose, UserTokenRecord } from "../../model/auth.ts";

/** Devise's defaults in Mastodon: confirm within 2 days, reset within 6 hours. */
export const TOKEN_LIFETIME_MS: Record<UserTokenPurpose, number> = {
  confirmation: 2 * 24 * 60 * 60 * 1000,
  password_reset: 6 * 60 * 60 * 1000,
};

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type TokenCheck =
  | { ok: true; token: UserTokenRecord; account: AccountRecord; user: UserRecord }
  | { ok: false; reason: "unknown" | "expired" | "used" };

/** A password hash as a reset token's stamp: the hash itself never leaves the user record. */
export const passwordStamp = (user: UserRecord): string => sha256(user.passwordHash);

/** Inside a write: a new token for `user`; returns it in the clear, for the mail. */
export function issueMailToken(store: Store, purpose: UserTokenPurpose, user: UserRecord, stamp: string, now = Date.now()): string {
  sweepExpiredUserTokens(store, now);
  const raw = randomSecret(32);
  putUserToken(store, {
    v: 1,
    hash: sha256(raw),
    purpose,
    accountId: user.accountId,
    stamp,
    createdAt: now,
    expiresAt: now + TOKEN_LIFETIME_MS[purpose],
    usedAt: null,
  });
  return raw;
}

/** What a token from a link is worth. A token whose stamp no longer matches counts as used. */
export function checkMailToken(store: Store, purpose: UserTokenPurpose, raw: string | undefined, stampOf: (user: UserRecord) => string, now = Date.now()): TokenCheck {
  const token = raw && TOKEN_PATTERN.test(raw) ? getUserToken(store, sha256(raw)) : undefined;
  if (!token || token.purpose !== purpose) return { ok: false, reason: "unknown" };
  if (token.expiresAt <= now) return { ok: false, reason: "expired" };
  const account = getAccount(store, token.accountId);
  const user = getUser(store, token.accountId);
  if (!account || !user) return { ok: false, reason: "unknown" };
  if (token.usedAt !== null || token.stamp !== stampOf(user)) return { ok: false, reason: "used" };
  return { ok: true, token, account, user };
}

/** Inside a write: marks the token used. */
export function useMailToken(store: Store, token: UserTokenRecord, now = Date.now()): void {
  putUserToken(store, { ...token, usedAt: now });
}
