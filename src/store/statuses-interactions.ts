// Favourites, bookmarks and pins: join rows between an account and a status. Each has a list row keyed by
// its own snowflake id (the paging cursor), a "has it" row per (account, status), and a by-status row that
// lets status removal find them. The "has it" row is the truth: list rows whose "has it" row is gone (or
// points at another id) are leftovers awaiting clean-up and are skipped by every read.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";

export interface JoinRow {
  /** the row's own id: the cursor of the list */
  id: string;
  accountId: string;
  statusId: string;
}

// Favourites

export function favouriteIdOf(store: Store, accountId: string, statusId: string): string | undefined {
  return store.db.favouriteOf.get([accountId, statusId]);
}

/** Inside a write. */
export function insertFavourite(store: Store, row: JoinRow): void {
  store.db.favourites.put([row.accountId, row.id], row.statusId);
  store.db.favouritesByStatus.put([row.statusId, row.id], row.accountId);
  store.db.favouriteOf.put([row.accountId, row.statusId], row.id);
}

/** Inside a write: the account stops counting as having favourited the status (list rows stay for the job);
 * true when it counted until now (so the counter moves once). */
export function forgetFavourite(store: Store, row: JoinRow): boolean {
  const key = [row.accountId, row.statusId];
  if (store.db.favouriteOf.get(key) !== row.id) return false;
  store.db.favouriteOf.remove(key);
  return true;
}

/** Inside a write: drops the list rows of a favourite; true when they were there. */
export function removeFavouriteRows(store: Store, row: JoinRow): boolean {
  const existed = store.db.favourites.doesExist([row.accountId, row.id]);
  store.db.favourites.remove([row.accountId, row.id]);
  store.db.favouritesByStatus.remove([row.statusId, row.id]);
  return existed;
}

/** A page of an account's live favourites, newest first. */
export function pageFavourites(store: Store, accountId: string, query: PageQuery, accept: (statusId: string) => boolean): JoinRow[] {
  return scanPage<string>(store.db.favourites, [accountId], query, (row) => {
    return favouriteIdOf(store, accountId, row.value) === row.key[1] && accept(row.value);
  }).map((row) => ({ id: row.key[1], accountId, statusId: row.value }));
}

/** A page of who favourited a status (live favourites), newest first. */
export function pageFavouriters(store: Store, statusId: string, query: PageQuery, accept: (accountId: string) => boolean): JoinRow[] {
  return scanPage<string>(store.db.favouritesByStatus, [statusId], query, (row) => {
    return favouriteIdOf(store, row.value, statusId) === row.key[1] && accept(row.value);
  }).map((row) => ({ id: row.key[1], accountId: row.value, statusId }));
}

/** Every favourite row of a status (live or not), up to `limit`. */
export function favouritesOfStatus(store: Store, statusId: string, limit: number): JoinRow[] {
  const out: JoinRow[] = [];
  for (const { key, value } of store.db.favouritesByStatus.getRange({ start: [statusId], end: [statusId, END] })) {
    out.push({ id: (key as string[])[1]!, accountId: value as string, statusId });
    if (out.length >= limit) break;
  }
  return out;
}

// Bookmarks

export function bookmarkIdOf(store: Store, accountId: string, statusId: string): string | undefined {
  return store.db.bookmarkOf.get([accountId, statusId]);
}

/** Inside a write. */
export function insertBookmark(store: Store, row: JoinRow): void {
  store.db.bookmarks.put([row.accountId, row.id], row.statusId);
  store.db.bookmarksByStatus.put([row.statusId, row.id], row.accountId);
  store.db.bookmarkOf.put([row.accountId, row.statusId], row.id);
}

/** Inside a write: removes a bookmark completely. */
export function removeBookmark(store: Store, row: JoinRow): void {
  store.db.bookmarks.remove([row.accountId, row.id]);
  store.db.bookmarksByStatus.remove([row.statusId, row.id]);
  const key = [row.accountId, row.statusId];
  if (store.db.bookmarkOf.get(key) === row.id) store.db.bookmarkOf.remove(key);
}

export function pageBookmarks(store: Store, accountId: string, query: PageQuery, accept: (statusId: string) => boolean): JoinRow[] {
  return scanPage<string>(store.db.bookmarks, [accountId], query, (row) => {
    return bookmarkIdOf(store, accountId, row.value) === row.key[1] && accept(row.value);
  }).map((row) => ({ id: row.key[1], accountId, statusId: row.value }));
}

export function bookmarksOfStatus(store: Store, statusId: string, limit: number): JoinRow[] {
  const out: JoinRow[] = [];
  for (const { key, value } of store.db.bookmarksByStatus.getRange({ start: [statusId], end: [statusId, END] })) {
    out.push({ id: (key as string[])[1]!, accountId: value as string, statusId });
    if (out.length >= limit) break;
  }
  return out;
}

// Pins (only ever the author's own statuses, so the author id finds them)

export function pinIdOf(store: Store, accountId: string, statusId: string): string | undefined {
  return store.db.pinOf.get([accountId, statusId]);
}

/** Inside a write. */
export function insertPin(store: Store, row: JoinRow): void {
  store.db.pins.put([row.accountId, row.id], row.statusId);
  store.db.pinOf.put([row.accountId, row.statusId], row.id);
}

/** Inside a write. */
export function removePin(store: Store, accountId: string, statusId: string): void {
  const pinId = pinIdOf(store, accountId, statusId);
  if (!pinId) return;
  store.db.pins.remove([accountId, pinId]);
  store.db.pinOf.remove([accountId, statusId]);
}

/** An account's pins, newest pin first. */
export function pinsOf(store: Store, accountId: string): JoinRow[] {
  const out: JoinRow[] = [];
  for (const { key, value } of store.db.pins.getRange({ start: [accountId, END], end: [accountId], reverse: true })) {
    out.push({ id: (key as string[])[1]!, accountId, statusId: value as string });
  }
  return out;
}

// The viewer's flags for a page of statuses

/**
 * Rows a range read examines per status asked for before it stops and the rest are read one by one. On the
 * seeded instance (docs/benchmarks.md, bench/page-load.ts) a range read costs about 3.5 µs to start and 0.3 µs
 * per row, a point read about 0.37 µs: a page's range usually holds a row or none and wins by far; the budget
 * bounds the loss for an account with a row for most ids of the span.
 */
const RANGE_ROWS_PER_ID = 0.5;

/**
 * Of `statusIds`, those with a row [accountId, statusId] in a join keyspace keyed so (favouriteOf, bookmarkOf,
 * reblogOf): one range read over [accountId, lowest id]..[accountId, highest id] while it holds at most
 * RANGE_ROWS_PER_ID rows per id asked for, then point reads for the ids above where it stopped (an account with
 * many rows among the page's ids, as when it favourites most of what it reads). The same answers as a point
 * read per id, in the same read snapshot.
 */
export function joinedAmong(
  keyspace: Store["db"][keyof Store["db"]],
  accountId: string,
  statusIds: readonly string[],
  rowsPerId = RANGE_ROWS_PER_ID,
): Set<string> {
  const found = new Set<string>();
  if (statusIds.length === 0) return found;
  if (statusIds.length === 1) {
    if (keyspace.doesExist([accountId, statusIds[0]!])) found.add(statusIds[0]!);
    return found;
  }
  // The page's lowest and highest ids, without sorting or a set: a page holds at most 40 (ids are ASCII of one
  // length: string order is key order).
  let lowest = statusIds[0]!;
  let highest = lowest;
  for (const id of statusIds) {
    if (id < lowest) lowest = id;
    else if (id > highest) highest = id;
  }
  let budget = Math.max(1, Math.ceil(rowsPerId * statusIds.length));
  // Ids at or below `covered` are settled by the range read.
  let covered = highest;
  for (const key of keyspace.getKeys({ start: [accountId, lowest], end: [accountId, highest, END] })) {
    const statusId = (key as string[])[1]!;
    if (statusIds.includes(statusId)) found.add(statusId);
    if (--budget === 0) {
      covered = statusId;
      break;
    }
  }
  if (covered !== highest) {
    for (const statusId of statusIds) {
      if (statusId > covered && !found.has(statusId) && keyspace.doesExist([accountId, statusId])) found.add(statusId);
    }
  }
  return found;
}

/** Of `statusIds`, those `accountId` has favourited. */
export function favouritedAmong(store: Store, accountId: string, statusIds: readonly string[]): Set<string> {
  return joinedAmong(store.db.favouriteOf, accountId, statusIds);
}

/** Of `statusIds`, those `accountId` has bookmarked. */
export function bookmarkedAmong(store: Store, accountId: string, statusIds: readonly string[]): Set<string> {
  return joinedAmong(store.db.bookmarkOf, accountId, statusIds);
}
