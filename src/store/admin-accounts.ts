// The staff's account lists (GET /api/v1|v2/admin/accounts): account ids newest first, with Mastodon's
// max_id / since_id / min_id cursors, over the accounts keyspace (every account) or the users keyspace (local
// ones only: far fewer rows when a filter needs a user anyway). Both are keyed by the plain account id.
import type { Database } from "lmdb";
import { END, type Store } from "./handle.ts";
import type { PageQuery } from "../model/paging.ts";
import { userRemoved } from "./member-figures.ts";

export type AccountSource = "accounts" | "users";

/**
 * Ids of the page, newest first. `accept` filters ids out without counting them against the limit; every id
 * examined counts against `query.budget` when there is one (the Link header then continues past it).
 */
export function scanAccountIds(store: Store, source: AccountSource, query: PageQuery, accept: (id: string) => boolean): string[] {
  const keyspace: Database<any, any> = store.db[source];
  const out: string[] = [];
  if (query.limit <= 0) return out;
  const budget = query.budget;
  let lastId: string | null = null;
  const take = (id: string, going: "older" | "newer"): boolean | null => {
    if (budget && !budget.take()) {
      if (lastId) budget.stop(lastId, going);
      return null;
    }
    lastId = id;
    return accept(id);
  };
  if (query.minId) {
    // As Mastodon's to_a_paginated_by_id: with min_id, since_id is ignored; the page just above it.
    for (const key of keyspace.getKeys({ start: query.minId, end: query.maxId ?? undefined })) {
      if (typeof key !== "string" || key === query.minId) continue;
      const taken = take(key, "newer");
      if (taken === null) break;
      if (taken) out.push(key);
      if (out.length >= query.limit) break;
    }
    return out.reverse();
  }
  for (const key of keyspace.getKeys({ start: query.maxId ?? undefined, end: query.sinceId ?? undefined, reverse: true })) {
    if (typeof key !== "string" || key === query.maxId) continue;
    if (query.sinceId && key <= query.sinceId) break;
    const taken = take(key, "older");
    if (taken === null) break;
    if (taken) out.push(key);
    if (out.length >= query.limit) break;
  }
  return out;
}

/**
 * Inside a write: forgets an account and its user entirely, indexes included (a rejected sign-up, which
 * has no statuses or relationships yet: its name and address become free again).
 */
export function removeAccountRecords(store: Store, accountId: string): void {
  const account = store.db.accounts.get(accountId);
  if (account) {
    store.db.accountsByAcct.remove([account.username.toLowerCase(), account.domain?.toLowerCase() ?? ""]);
    store.db.accountsByUri.remove(account.uri);
  }
  const user = store.db.users.get(accountId);
  if (user) store.db.usersByEmail.remove(user.email.toLowerCase());
  store.db.users.remove(accountId);
  store.db.accountKeys.remove(accountId);
  store.db.accounts.remove(accountId);
  userRemoved(store, accountId);
}

/** Index keyspaces keyed [ownerId, …]: what an account's data removal walks through. */
export type OwnedKeyspace =
  | "statusesByAccount"
  | "followingIndex"
  | "followersIndex"
  | "followRequests"
  | "followRequestsIndex"
  | "favourites"
  | "bookmarks"
  | "blocksIndex"
  | "mutesIndex";

/** The first `limit` rows under [ownerId] (the removal takes them away batch by batch). */
export function ownedRows(store: Store, keyspace: OwnedKeyspace, ownerId: string, limit: number): { key: any[]; value: any }[] {
  const out: { key: any[]; value: any }[] = [];
  for (const row of store.db[keyspace].getRange({ start: [ownerId], end: [ownerId, END], limit })) out.push(row as { key: any[]; value: any });
  return out;
}

/** Inside a write: drops one such row whatever the record behind it says (so a removal always progresses). */
export function dropOwnedRow(store: Store, keyspace: OwnedKeyspace, key: any[]): void {
  store.db[keyspace].remove(key);
}
