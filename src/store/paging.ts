// Mastodon cursor paging as one range scan over keys shaped [...prefix, id].
import type { Database, Key } from "lmdb";
import { END } from "./handle.ts";
import type { PageQuery } from "../model/paging.ts";

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
