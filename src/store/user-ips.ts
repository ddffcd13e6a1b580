// The addresses a local user signed up and signed in from, with when each was last used: what staff see as
// Admin::Account `ip` and `ips` and filter by. A handful of rows per user; the oldest beyond a limit go.
import { END, type Store } from "./handle.ts";
import type { UserIp } from "../model/auth.ts";

/** Mastodon keeps a user's addresses of the last year; a fixed number keeps this bounded. */
const KEPT = 20;

export function userIps(store: Store, accountId: string): UserIp[] {
  const out: UserIp[] = [];
  for (const { key, value } of store.db.userIps.getRange({ start: [accountId], end: [accountId, END] })) {
    out.push({ ip: (key as [string, string])[1], usedAt: value as number });
  }
  return out.sort((a, b) => b.usedAt - a.usedAt);
}

/** Inside a write: notes a use of `ip`, dropping the least recently used addresses beyond the limit. */
export function noteUserIp(store: Store, accountId: string, ip: string, now: number): void {
  store.db.userIps.put([accountId, ip], now);
  const known = userIps(store, accountId);
  for (const old of known.slice(KEPT)) store.db.userIps.remove([accountId, old.ip]);
}

/** Inside a write: forgets every address (the account's data is removed). */
export function removeUserIps(store: Store, accountId: string): void {
  for (const key of store.db.userIps.getKeys({ start: [accountId], end: [accountId, END] })) store.db.userIps.remove(key);
}
