// Notification policies, requests and permissions (keyspace `notification_filtering`; docs/notifications.md).
// Families told apart by the key's first element:
//   ["p", accountId]                      → NotificationPolicyRecord (absent: the defaults)
//   ["r", recipientId, requestId]         → NotificationRequestRecord (a sender's filtered notifications, pending)
//   ["s", recipientId, fromAccountId]     → requestId (the pending request of a sender)
//   ["a", recipientId, fromAccountId]     → acceptedAt (ms): a sender let through from then on
//   ["m", recipientId, requestId]         → fromAccountId: accepted, its notifications not yet merged
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { NotificationPolicyRecord, NotificationRequestRecord } from "../model/notifications.ts";
import type { PageQuery } from "../model/paging.ts";

const db = (store: Store) => store.db.notificationFiltering;

export function getPolicyRecord(store: Store, accountId: string): NotificationPolicyRecord | undefined {
  return db(store).get(["p", accountId]);
}

/** Inside a write. */
export function putPolicyRecord(store: Store, accountId: string, policy: NotificationPolicyRecord): void {
  db(store).put(["p", accountId], policy);
}

export function getRequest(store: Store, recipientId: string, requestId: string): NotificationRequestRecord | undefined {
  return db(store).get(["r", recipientId, requestId]);
}

export function requestOfSender(store: Store, recipientId: string, fromAccountId: string): NotificationRequestRecord | undefined {
  const id = db(store).get(["s", recipientId, fromAccountId]) as string | undefined;
  return id ? getRequest(store, recipientId, id) : undefined;
}

/** Inside a write. */
export function putRequest(store: Store, request: NotificationRequestRecord): void {
  db(store).put(["r", request.recipientId, request.id], request);
  db(store).put(["s", request.recipientId, request.fromAccountId], request.id);
}

/** Inside a write. */
export function removeRequest(store: Store, request: NotificationRequestRecord): void {
  db(store).remove(["r", request.recipientId, request.id]);
  db(store).remove(["s", request.recipientId, request.fromAccountId]);
}

/** A page of the recipient's pending requests, newest first; `accept` filters without counting. */
export function pageRequests(
  store: Store,
  recipientId: string,
  query: PageQuery,
  accept: (r: NotificationRequestRecord) => boolean,
): NotificationRequestRecord[] {
  return scanPage<NotificationRequestRecord>(db(store), ["r", recipientId], query, (row) => accept(row.value)).map((row) => row.value);
}

/** At most `limit` of the recipient's pending requests, newest first. */
export function someRequests(store: Store, recipientId: string, limit: number): NotificationRequestRecord[] {
  const out: NotificationRequestRecord[] = [];
  for (const { value } of db(store).getRange({ start: ["r", recipientId, END], end: ["r", recipientId], reverse: true, limit })) {
    out.push(value as NotificationRequestRecord);
  }
  return out;
}

export function isPermitted(store: Store, recipientId: string, fromAccountId: string): boolean {
  return db(store).doesExist(["a", recipientId, fromAccountId]);
}

/** Inside a write. */
export function putPermission(store: Store, recipientId: string, fromAccountId: string, at: number): void {
  if (!isPermitted(store, recipientId, fromAccountId)) db(store).put(["a", recipientId, fromAccountId], at);
}

/** Inside a write: an accepted request whose notifications are still to be merged. */
export function putMerging(store: Store, recipientId: string, requestId: string, fromAccountId: string): void {
  db(store).put(["m", recipientId, requestId], fromAccountId);
}

/** Inside a write. */
export function removeMerging(store: Store, recipientId: string, requestId: string): void {
  db(store).remove(["m", recipientId, requestId]);
}

export function hasMerging(store: Store, recipientId: string): boolean {
  for (const _ of db(store).getKeys({ start: ["m", recipientId], end: ["m", recipientId, END], limit: 1 })) return true;
  return false;
}
