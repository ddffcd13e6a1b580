// Follow suggestions: the staff picks and each user's dismissed suggestions (keyspace `suggestions`), and the
// bounded reads of the social graph and of recent statuses that the suggestion sources rank
// (domain/suggestions). One keyspace holds both record families, told apart by the key's first element:
//   ["featured", accountId]            → FeaturedRecord   (staff picks, set with `warren suggestions add`)
//   ["dismissed", viewerId, targetId]  → dismissedAt (ms) (DELETE /api/v1/suggestions/:account_id)
import { END, type Store } from "./handle.ts";
import { idAtTime } from "../lib/ids.ts";
import { unpackStatus } from "./status-packing.ts";

import type { FeaturedRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

const FEATURED = "featured";
const DISMISSED = "dismissed";

/** At most `limit` staff picks, oldest pick first. */
export function listFeatured(store: Store, limit: number): FeaturedRecord[] {
  const out: FeaturedRecord[] = [];
  for (const { value } of store.db.suggestions.getRange({ start: [FEATURED], end: [FEATURED, END], limit })) {
    out.push(value as FeaturedRecord);
  }
  return out.sort((a, b) => a.addedAt - b.addedAt || (a.accountId < b.accountId ? -1 : 1));
}

export function countFeatured(store: Store): number {
  return store.db.suggestions.getCount({ start: [FEATURED], end: [FEATURED, END] });
}

export function getFeatured(store: Store, accountId: string): FeaturedRecord | undefined {
  return store.db.suggestions.get([FEATURED, accountId]);
}

/** Inside a write. */
export function putFeatured(store: Store, record: FeaturedRecord): void {
  store.db.suggestions.put([FEATURED, record.accountId], record);
}

/** Inside a write; false when the account was not a pick. */
export function removeFeatured(store: Store, accountId: string): boolean {
  if (!store.db.suggestions.doesExist([FEATURED, accountId])) return false;
  store.db.suggestions.remove([FEATURED, accountId]);
  return true;
}

export function isDismissed(store: Store, viewerId: string, targetId: string): boolean {
  return store.db.suggestions.doesExist([DISMISSED, viewerId, targetId]);
}

/** Inside a write: keeps the first dismissal's time when dismissed again. */
export function putDismissal(store: Store, viewerId: string, targetId: string, at: number): void {
  if (!isDismissed(store, viewerId, targetId)) store.db.suggestions.put([DISMISSED, viewerId, targetId], at);
}

// ---- Bounded reads of other record families, for the sources. ----

/** The accounts `accountId` follows, most recent follow first, at most `limit`. */
export function newestFollowing(store: Store, accountId: string, limit: number): string[] {
  const out: string[] = [];
  if (limit <= 0) return out;
  for (const { value } of store.db.followingIndex.getRange({ start: [accountId, END], end: [accountId], reverse: true, limit })) {
    out.push(value as string);
  }
  return out;
}

/** The accounts following `accountId`, most recent follow first, at most `limit`. */
export function newestFollowers(store: Store, accountId: string, limit: number): string[] {
  const out: string[] = [];
  if (limit <= 0) return out;
  for (const { value } of store.db.followersIndex.getRange({ start: [accountId, END], end: [accountId], reverse: true, limit })) {
    out.push(value as string);
  }
  return out;
}

/** Account ids of local users (in id order), at most `limit`. */
export function localUserIds(store: Store, limit: number): string[] {
  const out: string[] = [];
  for (const key of store.db.users.getKeys({ limit: limit + 1 })) {
    if (typeof key !== "string") continue;
    out.push(key);
    if (out.length >= limit) break;
  }
  return out;
}

/** Statuses (and reblogs) created since `sinceMs`, newest first, at most `limit` examined. */
export function* recentStatuses(store: Store, sinceMs: number, limit: number): Iterable<StatusRecord> {
  let examined = 0;
  for (const { key, value } of store.db.statuses.getRange({ start: END, end: idAtTime(sinceMs), reverse: true })) {
    if (typeof key !== "string") continue;
    if (++examined > limit) return;
    const status = unpackStatus(store, key, value);
    if (status) yield status;
  }
}
