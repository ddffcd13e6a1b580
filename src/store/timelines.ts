// Timeline feeds: home and list feeds (one row per status a viewer's feed received at fan-out), and the
// public and hashtag feeds (one row per eligible status). Rows carry ids only; readers re-read the status and
// re-check visibility, blocks and mutes, so a row that outlives its reason is simply not shown.
import type { Database } from "lmdb";
import { END, fitsInKey, type Store } from "./db.ts";
import { scanPage, type PageQuery, type Row } from "./paging.ts";
import { noteRead, versionName } from "./versions.ts";

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

/** Is `statusId` among the `n` newest rows of the feed? (Mastodon's reblog fall-off.) */
function amongNewest(keyspace: Database<any, any>, owner: string, statusId: string, n: number): boolean {
  let seen = 0;
  for (const _ of keyspace.getKeys({ start: [owner, END], end: [owner, statusId], reverse: true })) {
    if (++seen >= n) return false;
  }
  return true;
}

// Home feeds

export function homeHas(store: Store, viewerId: string, statusId: string): boolean {
  return store.db.homeFeed.doesExist([viewerId, statusId]);
}

/** Inside a write. */
export function putHomeEntry(store: Store, viewerId: string, statusId: string, entry: FeedEntry): void {
  store.db.homeFeed.put([viewerId, statusId], entry);
  if (entry.reblogOfId && !store.db.homeReblogs.doesExist([viewerId, entry.reblogOfId])) {
    store.db.homeReblogs.put([viewerId, entry.reblogOfId], statusId);
  }
}

/** Inside a write: true when the row was there. */
export function removeHomeEntry(store: Store, viewerId: string, statusId: string): boolean {
  const entry: FeedEntry | undefined = store.db.homeFeed.get([viewerId, statusId]);
  if (!entry) return false;
  store.db.homeFeed.remove([viewerId, statusId]);
  if (entry.reblogOfId && store.db.homeReblogs.get([viewerId, entry.reblogOfId]) === statusId) {
    store.db.homeReblogs.remove([viewerId, entry.reblogOfId]);
  }
  return true;
}

/**
 * Would a reblog of `originalId` repeat what the home timeline shows near its top? True when the original, or
 * an earlier reblog of it, is among the `falloff` newest rows.
 */
export function homeShowsRecently(store: Store, viewerId: string, originalId: string, falloff: number): boolean {
  if (homeHas(store, viewerId, originalId) && amongNewest(store.db.homeFeed, viewerId, originalId, falloff)) return true;
  const reblogId: string | undefined = store.db.homeReblogs.get([viewerId, originalId]);
  return !!reblogId && homeHas(store, viewerId, reblogId) && amongNewest(store.db.homeFeed, viewerId, reblogId, falloff);
}

/** A page of a home feed, newest first; `accept` skips rows without counting them. */
export function pageHomeFeed(store: Store, viewerId: string, query: PageQuery, accept: (statusId: string, entry: FeedEntry) => boolean): Row<FeedEntry>[] {
  noteRead(versionName.home(viewerId));
  return page(store.db.homeFeed, viewerId, query, accept);
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
  if (!fitsInKey(feed)) return false;
  noteRead(versionName.publicFeed(feed));
  for (const _ of store.db.publicFeeds.getKeys({ start: [feed], end: [feed, END], limit: 1 })) return true;
  return false;
}

export function pagePublicFeed(store: Store, feed: PublicFeed, query: PageQuery, accept: (statusId: string, entry: PublicEntry) => boolean): Row<PublicEntry>[] {
  if (!fitsInKey(feed)) return [];
  noteRead(versionName.publicFeed(feed));
  return page(store.db.publicFeeds, feed, query, accept);
}

/** Ids of an account's statuses and reblogs (the statuses' by-account index): feed rows by author. */
export function accountStatusIds(store: Store, accountId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.statusesByAccount.getKeys({ start: [accountId], end: [accountId, END] })) out.push((key as string[])[1]!);
  return out;
}

/** Id of the last committed write transaction of the environment, by any thread or process: it changes
 * whenever anything is written, so it can tell whether something computed from the store is still current. */

