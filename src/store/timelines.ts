// Timeline feeds: home and list feeds (one row per status a viewer's feed received at fan-out), and the
// public and hashtag feeds (one row per eligible status). Rows carry ids only; readers re-read the status and
// re-check visibility, blocks and mutes, so a row that outlives its reason is simply not shown.
import type { Database } from "lmdb";
import { END, type Store } from "./handle.ts";
import { scanPage, type Row } from "./paging.ts";
import { afterStatus, encodeHomeRow, statusPrefix } from "./home-rows.ts";
import { getStatus } from "./statuses.ts";
import { noteRead, versionName } from "./versions.ts";
import type { PageQuery } from "../model/paging.ts";

/** A home or list feed row. */
export interface FeedEntry {
  authorId: string;
  /** the status a reblog wraps; null for an ordinary status */
  reblogOfId: string | null;
}

/** A public or hashtag feed row. */
export interface PublicEntry {
  accountId: string;
  local: boolean;
}

/** The public timeline in its three flavours, the same for statuses with media (only_media), and hashtags. */
export type PublicFeed =
  | "public" | "public:local" | "public:remote"
  | "media" | "media:local" | "media:remote"
  | `tag:${string}`;

export const tagFeed = (tag: string): PublicFeed => `tag:${tag}`;

/** Local accounts are the ones with a user (only they have home timelines). Cheaper than decoding the account. */
export function isLocalAccountId(store: Store, accountId: string): boolean {
  return store.db.users.doesExist(accountId);
}

function page<V>(keyspace: Database<any, any>, owner: string, query: PageQuery, accept: (statusId: string, value: V) => boolean): Row<V>[] {
  return scanPage<V>(keyspace, [owner], query, (row) => accept(row.key[1], row.value));
}

// Home feeds (rows: store/home-rows.ts)

/**
 * The bytes of the row a status has in any home (its author and the status it wraps are the status's own),
 * or null when the status record is gone. Point checks go through these exact bytes: lmdb-js positions a
 * duplicate cursor inside a write transaction on stale key bytes after a write in that transaction.
 */
function rowOf(store: Store, statusId: string): { bytes: Buffer; reblogOfId: string | null } | null {
  const status = getStatus(store, statusId);
  if (!status) return null;
  return { bytes: encodeHomeRow(statusId), reblogOfId: status.reblogOfId };
}

export function homeHas(store: Store, viewerId: string, statusId: string): boolean {
  const row = rowOf(store, statusId);
  return !!row && store.db.homeFeed.doesExist(viewerId, row.bytes);
}

/** Inside a write. */
export function putHomeEntry(store: Store, viewerId: string, statusId: string, entry: FeedEntry): void {
  store.db.homeFeed.put(viewerId, encodeHomeRow(statusId));
  if (entry.reblogOfId && !store.db.homeReblogs.doesExist([viewerId, entry.reblogOfId])) {
    store.db.homeReblogs.put([viewerId, entry.reblogOfId], statusId);
  }
}

/** Inside a write: true when the row was there. A row whose status record is already gone stays (reads skip it). */
export function removeHomeEntry(store: Store, viewerId: string, statusId: string): boolean {
  const row = rowOf(store, statusId);
  if (!row || !store.db.homeFeed.doesExist(viewerId, row.bytes)) return false;
  store.db.homeFeed.remove(viewerId, row.bytes);
  if (row.reblogOfId && store.db.homeReblogs.get([viewerId, row.reblogOfId]) === statusId) {
    store.db.homeReblogs.remove([viewerId, row.reblogOfId]);
  }
  return true;
}

/** Is `statusId` among the `n` newest rows of the viewer's home? (Mastodon's reblog fall-off.) */
function amongNewestHome(store: Store, viewerId: string, statusId: string, n: number): boolean {
  return store.db.homeFeed.getValuesCount(viewerId, { start: afterStatus(statusId) }) < n;
}

/**
 * Would a reblog of `originalId` repeat what the home timeline shows near its top? True when the original, or
 * an earlier reblog of it, is among the `falloff` newest rows.
 */
export function homeShowsRecently(store: Store, viewerId: string, originalId: string, falloff: number): boolean {
  if (homeHas(store, viewerId, originalId) && amongNewestHome(store, viewerId, originalId, falloff)) return true;
  const reblogId: string | undefined = store.db.homeReblogs.get([viewerId, originalId]);
  return !!reblogId && homeHas(store, viewerId, reblogId) && amongNewestHome(store, viewerId, reblogId, falloff);
}

/**
 * A page of a home feed, newest first; `accept` skips rows without counting them. The same paging as
 * scanPage (store/paging.ts), over the viewer's sorted rows.
 */
export function pageHomeFeed(store: Store, viewerId: string, query: PageQuery, accept: (statusId: string) => boolean): Row<null>[] {
  noteRead(versionName.home(viewerId));
  const rows: Row<null>[] = [];
  if (query.limit <= 0) return rows;
  const { maxId, sinceId, minId, budget } = query;
  const newer = !!minId;
  // min_id: upwards from just above it (since_id is then ignored, as on Mastodon); otherwise downwards.
  const range = newer
    ? { start: afterStatus(minId), end: maxId ? statusPrefix(maxId) : undefined }
    : { start: maxId ? statusPrefix(maxId) : undefined, reverse: true };
  let lastId: string | null = null;
  for (const statusId of store.db.homeFeed.getValues(viewerId, range) as Iterable<string>) {
    // A reverse scan starts at its bound inclusive, and max_id's own row is that bound: not part of the page.
    if (!newer && statusId === maxId) continue;
    if (!newer && sinceId && statusId <= sinceId) break;
    if (budget && !budget.take()) {
      if (lastId) budget.stop(lastId, newer ? "newer" : "older");
      break;
    }
    lastId = statusId;
    if (!accept(statusId)) continue;
    rows.push({ key: [viewerId, statusId], value: null });
    if (rows.length >= query.limit) break;
  }
  return newer ? rows.reverse() : rows;
}

/** The id of the newest row of a viewer's home, or null when it has none. */
export function newestHomeRow(store: Store, viewerId: string): string | null {
  noteRead(versionName.home(viewerId));
  for (const statusId of store.db.homeFeed.getValues(viewerId, { reverse: true, limit: 1 }) as Iterable<string>) return statusId;
  return null;
}

/** How many rows of a viewer's home lie from `lowest` (null: the oldest) up to `highest`, both included. */
export function homeRowsBetween(store: Store, viewerId: string, lowest: string | null, highest: string): number {
  noteRead(versionName.home(viewerId));
  return store.db.homeFeed.getValuesCount(viewerId, { start: lowest ? statusPrefix(lowest) : undefined, end: afterStatus(highest) });
}

// List feeds

export function listFeedHas(store: Store, listId: string, statusId: string): boolean {
  return store.db.listFeed.doesExist([listId, statusId]);
}

/** Inside a write. */
export function putListEntry(store: Store, listId: string, statusId: string, entry: FeedEntry): void {
  store.db.listFeed.put([listId, statusId], entry);
}

/** Inside a write: true when the row was there. */
export function removeListEntry(store: Store, listId: string, statusId: string): boolean {
  if (!store.db.listFeed.doesExist([listId, statusId])) return false;
  store.db.listFeed.remove([listId, statusId]);
  return true;
}

export function pageListFeed(store: Store, listId: string, query: PageQuery, accept: (statusId: string, entry: FeedEntry) => boolean): Row<FeedEntry>[] {
  noteRead(versionName.list(listId));
  return page(store.db.listFeed, listId, query, accept);
}

/** Up to `limit` rows of a list feed (any order); removal of a deleted list goes through them in batches. */
export function listFeedKeys(store: Store, listId: string, limit: number): string[] {
  const out: string[] = [];
  for (const key of store.db.listFeed.getKeys({ start: [listId], end: [listId, END], limit })) out.push((key as string[])[1]!);
  return out;
}

// Public and hashtag feeds

/** Inside a write. */
export function putPublicEntry(store: Store, feed: PublicFeed, statusId: string, entry: PublicEntry): void {
  store.db.publicFeeds.put([feed, statusId], entry);
}

/** Inside a write. */
export function removePublicEntry(store: Store, feed: PublicFeed, statusId: string): void {
  store.db.publicFeeds.remove([feed, statusId]);
}

export function publicFeedExists(store: Store, feed: PublicFeed): boolean {
  noteRead(versionName.publicFeed(feed));
  for (const _ of store.db.publicFeeds.getKeys({ start: [feed], end: [feed, END], limit: 1 })) return true;
  return false;
}

export function pagePublicFeed(store: Store, feed: PublicFeed, query: PageQuery, accept: (statusId: string, entry: PublicEntry) => boolean): Row<PublicEntry>[] {
  noteRead(versionName.publicFeed(feed));
  return page(store.db.publicFeeds, feed, query, accept);
}

/** Ids of an account's statuses and reblogs (the statuses' by-account index): feed rows by author. */
export function accountStatusIds(store: Store, accountId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.statusesByAccount.getKeys({ start: [accountId], end: [accountId, END] })) out.push((key as string[])[1]!);
  return out;
}

/**
 * Migration: the home rows of before schema 4 (msgpack FeedEntry records under [viewerId, statusId] in
 * home_feed, about 116 bytes each on disk) into the packed home rows, then home_feed emptied. Inside the migration's
 * write transaction.
 */
export function moveHomeRows(store: Store): void {
  const legacy = store.db.legacyHomeFeed;
  for (const { key, value } of legacy.getRange() as Iterable<{ key: unknown; value: FeedEntry }>) {
    if (!Array.isArray(key)) continue; // msgpack's shared structures entry
    const [viewerId, statusId] = key as [string, string];
    putHomeEntry(store, viewerId, statusId, { authorId: value.authorId, reblogOfId: value.reblogOfId });
  }
  legacy.clearSync();
}

/**
 * Migration 10: the rows of schemas 4–9 (home_rows: status, author and reblogged ids) into the 8-byte rows of
 * home_status_ids, then home_rows emptied. A viewer's rows are read in order and so appended in order, which
 * fills the pages. Inside the migration's write transaction; a second run finds home_rows empty.
 */
export function moveToStatusIdRows(store: Store): void {
  const wide = store.db.wideHomeFeed;
  for (const { key, value } of wide.getRange() as Iterable<{ key: string; value: string }>) {
    store.db.homeFeed.put(key, encodeHomeRow(value));
  }
  wide.clearSync();
}
