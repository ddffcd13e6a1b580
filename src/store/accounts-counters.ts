// The stored counters of an account recomputed from the rows they count (`warren cache recount accounts`).
// statuses_count moves with the account's statuses_by_account rows except direct messages (reblogs count,
// as on Mastodon); followers_count and following_count with the follow index rows.
import { readStatus } from "./statuses.ts";

import type { AccountCounts } from "../model/accounts.ts";
import { END, type Store, countRecords, recordIdsAfter } from "./handle.ts";


export function countAccountRows(store: Store, accountId: string): AccountCounts {
  let statusesCount = 0;
  for (const key of store.db.statusesByAccount.getKeys({ start: [accountId], end: [accountId, END] })) {
    const status = readStatus(store, (key as string[])[1]!);
    if (status && status.visibility !== "direct") statusesCount++;
  }
  return {
    statusesCount,
    followersCount: store.db.followersIndex.getCount({ start: [accountId], end: [accountId, END] }),
    followingCount: store.db.followingIndex.getCount({ start: [accountId], end: [accountId, END] }),
  };
}

/** Ids of stored accounts (local and remote) in id order, the `limit` after `afterId`. */
export function accountIdsAfter(store: Store, afterId: string | null, limit: number): string[] {
  return recordIdsAfter(store.db.accounts, afterId, limit);
}

export function countStoredAccounts(store: Store): number {
  return countRecords(store.db.accounts);
}
