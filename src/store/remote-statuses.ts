// What `warren statuses remove` asks (docs/cli.md): remote statuses older than a cutoff, and whether anyone
// here has had to do with one. Local accounts are the ones with a user.
import { unpackStatus, type StoredStatus } from "./status-packing.ts";
import type { StatusRecord } from "../model/statuses.ts";
import { END, type Store } from "./handle.ts";

/** Rows keyed [statusId, …] whose value is the account that made them. */
const BY_STATUS = ["favouritesByStatus", "bookmarksByStatus", "reblogsByStatus", "statusReplies"] as const;

const isLocal = (store: Store, accountId: unknown) => typeof accountId === "string" && store.db.users.doesExist(accountId);

/** Has a local account favourited, bookmarked, reblogged, replied to, quoted or voted on it, or is one mentioned? */
export function touchedHere(store: Store, status: StatusRecord): boolean {
  if (status.mentionIds.some((id) => isLocal(store, id))) return true;
  for (const keyspace of BY_STATUS) {
    for (const { value } of store.db[keyspace].getRange({ start: [status.id], end: [status.id, END] })) if (isLocal(store, value)) return true;
  }
  for (const { value } of store.db.quotes.getRange({ start: ["s", status.id], end: ["s", status.id, END] })) if (isLocal(store, value)) return true;
  for (const key of store.db.polls.getKeys({ start: ["v", status.id], end: ["v", status.id, END] })) if (isLocal(store, (key as string[])[2])) return true;
  return false;
}

/** Up to `limit` statuses (remote or not) with ids after `afterId` and before `beforeId`, in id order. */
export function statusesBetween(store: Store, afterId: string | null, beforeId: string, limit: number): StatusRecord[] {
  const out: StatusRecord[] = [];
  for (const { key, value } of store.db.statuses.getRange({ start: afterId ?? undefined, end: beforeId, limit: limit + 1 })) {
    if (typeof key !== "string" || key === afterId) continue;
    const status = unpackStatus(store, key, value as StoredStatus);
    if (status) out.push(status);
    if (out.length >= limit) break;
  }
  return out;
}
