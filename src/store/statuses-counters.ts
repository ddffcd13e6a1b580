// The stored counters of a status recomputed from the rows they count (`warren cache recount statuses`).
// Each counter moves with one kind of row, in the transaction that adds or removes it:
// replies_count with the status_replies rows under the status, reblogs_count with the live reblogs (a
// reblogs_by_status row that reblog_of still points at), favourites_count with the live favourites (a
// favourites_by_status row that favourite_of still points at).
import type { Database } from "lmdb";
import { countRecords, END, recordIdsAfter, type Store } from "./handle.ts";
import { favouriteIdOf } from "./statuses-interactions.ts";
import { reblogIdOf } from "./statuses.ts";
import type { StatusCounts } from "../model/statuses.ts";

/** Rows [statusId, rowId] → accountId under a status that `live` accepts. */
function liveRows(keyspace: Database, statusId: string, live: (rowId: string, accountId: string) => boolean): number {
  let count = 0;
  for (const { key, value } of keyspace.getRange({ start: [statusId], end: [statusId, END] })) {
    if (live((key as string[])[1]!, value as string)) count++;
  }
  return count;
}

export function countStatusRows(store: Store, statusId: string): StatusCounts {
  const repliesCount = store.db.statusReplies.getCount({ start: [statusId], end: [statusId, END] });
  const reblogsCount = liveRows(store.db.reblogsByStatus, statusId, (id, accountId) => reblogIdOf(store, accountId, statusId) === id);
  const favouritesCount = liveRows(store.db.favouritesByStatus, statusId, (id, accountId) => favouriteIdOf(store, accountId, statusId) === id);
  return { repliesCount, reblogsCount, favouritesCount };
}

/** Ids of stored statuses (reblogs included) in id order, the `limit` after `afterId`. */
export function statusIdsAfter(store: Store, afterId: string | null, limit: number): string[] {
  return recordIdsAfter(store.db.statuses, afterId, limit);
}

export function countStoredStatuses(store: Store): number {
  return countRecords(store.db.statuses);
}
