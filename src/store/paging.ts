// Mastodon cursor paging as one range scan over keys shaped [...prefix, id].
import type { Database, Key } from "lmdb";
import { END } from "./db.ts";

export interface PageQuery {
  limit: number;
  /** strictly older than */
  maxId?: string | null;
  /** strictly newer than; returns the newest page above it */
  sinceId?: string | null;
  /** strictly newer than; returns the page immediately above it (forward paging) */
  minId?: string | null;
  /** Bounds a filtered read: rows examined, whether kept or not. Absent on internal reads, which see everything. */
  budget?: RowBudget;
}

/**
 * Rows one filtered page read may examine. A filter that rejects most rows (only_media, a feed full of muted
 * authors, notification types) would otherwise read the whole keyspace for one short page; with the budget
 * spent, the read returns what it found and remembers where it stopped, and the Link header continues from
 * there (a short or even empty page with a `next` link, as Mastodon clients page on).
 */
export const SCAN_ROW_BUDGET = 1000;

/** One request's scan budget, and where the scan stopped when it ran out before the page filled. */
export class RowBudget {
  examined = 0;
  /** id of the last row examined, set only when rows remained unexamined */
  stoppedAt: string | null = null;
  /** direction of the scan that stopped: "older" (max_id, since_id, no cursor) or "newer" (min_id) */
  stoppedGoing: "older" | "newer" = "older";

  constructor(readonly rows: number = SCAN_ROW_BUDGET) {}

  /** Counts one more row; false once the budget is spent. */
  take(): boolean {
    if (this.examined >= this.rows) return false;
    this.examined++;
    return true;
  }

  stop(lastId: string, going: "older" | "newer"): void {
    this.stoppedAt = lastId;
    this.stoppedGoing = going;
  }
}

export interface Row<V> {
  key: any[];
  value: V;
}

/**
 * Rows newest first. `accept` filters rows out without counting them against the limit; every row read counts
 * against `query.budget` when there is one.
 */
export function scanPage<V>(
  keyspace: Database<any, any>,
  prefix: Key[],
  query: PageQuery,
  accept: (row: Row<V>) => boolean = () => true,
): Row<V>[] {
  const rows: Row<V>[] = [];
  if (query.limit <= 0) return rows;
  const idAt = prefix.length;
  const budget = query.budget;
  let lastId: string | null = null;
  const upper: Key[] = query.maxId ? [...prefix, query.maxId] : [...prefix, END];
  if (query.minId) {
    // As Mastodon's to_a_paginated_by_id: with min_id, since_id is ignored.
    const lower = query.minId;
    for (const row of keyspace.getRange({ start: [...prefix, lower], end: upper }) as Iterable<Row<V>>) {
      if (row.key[idAt] === lower) continue;
      if (budget && !budget.take()) {
        if (lastId) budget.stop(lastId, "newer");
        break;
      }
      lastId = row.key[idAt];
      if (!accept(row)) continue;
      rows.push(row);
      if (rows.length >= query.limit) break;
    }
    return rows.reverse();
  }
  const lowerBound: Key[] = query.sinceId ? [...prefix, query.sinceId] : [...prefix];
  for (const row of keyspace.getRange({ start: upper, end: lowerBound, reverse: true }) as Iterable<Row<V>>) {
    if (query.maxId && row.key[idAt] === query.maxId) continue;
    if (query.sinceId && row.key[idAt] <= query.sinceId) break;
    if (budget && !budget.take()) {
      if (lastId) budget.stop(lastId, "older");
      break;
    }
    lastId = row.key[idAt];
    if (!accept(row)) continue;
    rows.push(row);
    if (rows.length >= query.limit) break;
  }
  return rows;
}
