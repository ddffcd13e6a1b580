// OAuth applications, access tokens and authorization codes. Secrets are only ever stored hashed.
import type { Store } from "./handle.ts";
import { tokenIssued } from "./member-figures.ts";
import { removePushSubscription } from "./push.ts";
import type { AppRecord, AuthorizationCodeRecord, TokenRecord } from "../model/auth.ts";

export function getApp(store: Store, id: string): AppRecord | undefined {
  return store.db.apps.get(id);
}

export function findAppByClientId(store: Store, clientId: string): AppRecord | undefined {
  const id: string | undefined = store.db.appsByClientId.get(clientId);
  return id ? getApp(store, id) : undefined;
}

/** Inside a write. */
export function insertApp(store: Store, app: AppRecord): void {
  store.db.apps.put(app.id, app);
  store.db.appsByClientId.put(app.clientId, app.id);
}

export function findToken(store: Store, hash: string): TokenRecord | undefined {
  return store.db.tokens.get(hash);
}

/** Inside a write: a user's token is a sign-in (store/member-figures.ts). */
export function insertToken(store: Store, token: TokenRecord): void {
  store.db.tokens.put(token.hash, token);
  store.db.tokensByOwner.put([token.accountId ?? token.appId, token.hash], true);
  tokenIssued(store, token);
}

/** Inside a write: marks a token revoked (kept for audit; lookups treat it as invalid). Its Web Push
 * subscription goes with it. */
export function revokeToken(store: Store, token: TokenRecord, at: number): void {
  store.db.tokens.put(token.hash, { ...token, revokedAt: at });
  store.db.tokensByOwner.remove([token.accountId ?? token.appId, token.hash]);
  removePushSubscription(store, token.hash);
}

/** Live tokens of an account (or of an app, for app tokens). */
export function tokensOf(store: Store, ownerId: string): TokenRecord[] {
  const out: TokenRecord[] = [];
  for (const { key } of store.db.tokensByOwner.getRange({ start: [ownerId], end: [ownerId, "\uffff"] })) {
    const token = findToken(store, (key as string[])[1]!);
    if (token && !token.revokedAt) out.push(token);
  }
  return out;
}

export function findAuthorizationCode(store: Store, hash: string): AuthorizationCodeRecord | undefined {
  return store.db.authCodes.get(hash);
}

/** Inside a write. */
export function putAuthorizationCode(store: Store, code: AuthorizationCodeRecord): void {
  store.db.authCodes.put(code.hash, code);
}

/** Inside a write: forgets codes past their expiry (kept until then so that a replay can be detected). */
export function removeExpiredAuthorizationCodes(store: Store, now: number): void {
  const expired: string[] = [];
  for (const { key, value } of store.db.authCodes.getRange({})) {
    if ((value as AuthorizationCodeRecord).expiresAt <= now) expired.push(key as string);
  }
  for (const key of expired) store.db.authCodes.remove(key);
}

/** A random per-instance secret (CSRF and session signing), created on first use. */
export function getInstanceSecret(store: Store, purpose: string): string | undefined {
  return store.db.meta.get(`secret:${purpose}`);
}

/** Inside a write. */
export function putInstanceSecret(store: Store, purpose: string, secret: string): void {
  store.db.meta.put(`secret:${purpose}`, secret);
}

/** The instance's Web Push (VAPID) public key (store/push.ts); apps report it as `vapid_key`. */
export function vapidPublicKey(store: Store): string | undefined {
  return store.db.meta.get("vapid_public_key");
}
