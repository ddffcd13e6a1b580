// One-time tokens sent by e-mail (confirmation, password reset), stored by their SHA-256 digest only. A used
// token is kept, marked, until it expires, so a second visit can be told "already used"; expired ones are swept
// a few at a time whenever a new one is issued.
import { END, type Store } from "./handle.ts";
import type { UserTokenRecord } from "../model/auth.ts";

const SWEEP_BATCH = 100;

export function getUserToken(store: Store, hash: string): UserTokenRecord | undefined {
  return store.db.userTokens.get(["t", hash]);
}

/** Inside a write: stores a new token, or a token's new state (used). */
export function putUserToken(store: Store, token: UserTokenRecord): void {
  store.db.userTokens.put(["t", token.hash], token);
  store.db.userTokens.put(["x", token.expiresAt, token.hash], null);
}

/** Inside a write: forgets up to a batch of tokens past their expiry. */
export function sweepExpiredUserTokens(store: Store, now: number): void {
  const expired: [number, string][] = [];
  for (const key of store.db.userTokens.getKeys({ start: ["x"], end: ["x", now, END], limit: SWEEP_BATCH })) {
    expired.push([(key as [string, number, string])[1], (key as [string, number, string])[2]]);
  }
  for (const [expiresAt, hash] of expired) {
    store.db.userTokens.remove(["x", expiresAt, hash]);
    store.db.userTokens.remove(["t", hash]);
  }
}
