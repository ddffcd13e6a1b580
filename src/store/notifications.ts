// Notification records and their indexes.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { NotificationRecord } from "../model/notifications.ts";
import type { PageQuery } from "../model/paging.ts";

/** A notification as stored under [recipientId, id] (docs/disk.md): the key's two ids are left out of the value. */
export type StoredNotification = Omit<NotificationRecord, "id" | "recipientId"> & { id?: string; recipientId?: string };

export function packNotification(n: NotificationRecord): StoredNotification {
  const { id: _id, recipientId: _recipientId, ...rest } = n;
  return rest;
}

/** Records written before schema 6 carry the ids themselves and come back as they are. */
function unpack(key: unknown, stored: StoredNotification): NotificationRecord {
  if (stored.id !== undefined) return stored as NotificationRecord;
  const [recipientId, id] = key as string[];
  return { id: id!, recipientId: recipientId!, ...stored } as NotificationRecord;
}

/** Inside a write. */
export function insertNotification(store: Store, n: NotificationRecord): void {
  store.db.notifications.put([n.recipientId, n.id], packNotification(n));
  if (n.statusId) store.db.notificationsByStatus.put([n.statusId, n.id], n.recipientId);
  store.db.notificationsByPair.put([n.recipientId, n.fromAccountId, n.id], null);
}

export function getNotification(store: Store, recipientId: string, id: string): NotificationRecord | undefined {
  const stored: StoredNotification | undefined = store.db.notifications.get([recipientId, id]);
  return stored && unpack([recipientId, id], stored);
}

/** Inside a write. */
export function removeNotification(store: Store, n: NotificationRecord): void {
  store.db.notifications.remove([n.recipientId, n.id]);
  if (n.statusId) store.db.notificationsByStatus.remove([n.statusId, n.id]);
  store.db.notificationsByPair.remove([n.recipientId, n.fromAccountId, n.id]);
}

/** Notifications that point at a status (removed when the status is deleted). */
export function notificationsOfStatus(store: Store, statusId: string): NotificationRecord[] {
  const out: NotificationRecord[] = [];
  for (const { key, value } of store.db.notificationsByStatus.getRange({ start: [statusId], end: [statusId, "\uffff"] })) {
    const n = getNotification(store, value as string, (key as string[])[1]!);
    if (n) out.push(n);
  }
  return out;
}

/** The newest of `recipientId`'s notifications of `type` about a status (its group's start, group-key.ts). */
export function latestNotificationOfStatus(store: Store, statusId: string, recipientId: string, type: string): NotificationRecord | undefined {
  for (const { key, value } of store.db.notificationsByStatus.getRange({ start: [statusId, END], end: [statusId], reverse: true })) {
    if (value !== recipientId) continue;
    const n = getNotification(store, recipientId, (key as string[])[1]!);
    if (n?.type === type) return n;
  }
  return undefined;
}

/** Notifications `recipientId` received from `fromAccountId` (removed by block clean-up). */
export function notificationsBetween(store: Store, recipientId: string, fromAccountId: string): NotificationRecord[] {
  const out: NotificationRecord[] = [];
  for (const { key } of store.db.notificationsByPair.getRange({ start: [recipientId, fromAccountId], end: [recipientId, fromAccountId, "\uffff"] })) {
    const n = getNotification(store, recipientId, (key as string[])[2]!);
    if (n) out.push(n);
  }
  return out;
}

/** Would this notification duplicate an existing one (same type, sender and status, and report for admin.report)? */
export function hasNotification(
  store: Store,
  recipientId: string,
  fromAccountId: string,
  type: string,
  statusId: string | null,
  reportId: string | null = null,
): boolean {
  // With a status, its own (short) index is scanned: the pair index grows with every mention between two
  // accounts and made each new post slower than the last.
  if (statusId) {
    for (const { key, value } of store.db.notificationsByStatus.getRange({ start: [statusId], end: [statusId, "\uffff"] })) {
      if (value !== recipientId) continue;
      const n = getNotification(store, recipientId, (key as string[])[1]!);
      if (n && n.type === type && n.fromAccountId === fromAccountId) return true;
    }
    return false;
  }
  for (const n of notificationsBetween(store, recipientId, fromAccountId)) {
    if (n.type === type && n.statusId === statusId && (n.reportId ?? null) === reportId) return true;
  }
  return false;
}

/** A page of `recipientId`'s notifications, newest first; `accept` filters without counting. */
export function pageNotifications(
  store: Store,
  recipientId: string,
  query: PageQuery,
  accept: (n: NotificationRecord) => boolean,
): NotificationRecord[] {
  // Rows come back reversed for min_id: each accepted one is unpacked again in the order answered.
  const rows = scanPage<StoredNotification>(store.db.notifications, [recipientId], query, (row) => accept(unpack(row.key, row.value)));
  return rows.map((row) => unpack(row.key, row.value));
}

/** `recipientId`'s notifications with ids in [fromId, toId), newest first. */
export function notificationsInRange(store: Store, recipientId: string, fromId: string, toId: string): NotificationRecord[] {
  const out: NotificationRecord[] = [];
  for (const { key, value } of store.db.notifications.getRange({ start: [recipientId, fromId], end: [recipientId, toId] })) {
    out.push(unpack(key, value));
  }
  return out.reverse();
}

/** Inside a write: removes `recipientId`'s notifications from the senders `from` picks (asked once per sender). */
export function clearNotificationsFrom(store: Store, recipientId: string, from: (fromAccountId: string) => boolean): void {
  const picked = new Map<string, boolean>();
  const doomed: NotificationRecord[] = [];
  for (const { key } of store.db.notificationsByPair.getRange({ start: [recipientId], end: [recipientId, END] })) {
    const [, fromId, id] = key as string[];
    let hit = picked.get(fromId!);
    if (hit === undefined) picked.set(fromId!, (hit = from(fromId!)));
    const n = hit ? getNotification(store, recipientId, id!) : undefined;
    if (n) doomed.push(n);
  }
  for (const n of doomed) removeNotification(store, n);
}

/** Inside a write: removes every notification of `recipientId`. Returns how many. */
export function clearNotifications(store: Store, recipientId: string): number {
  const all: NotificationRecord[] = [];
  for (const { key, value } of store.db.notifications.getRange({ start: [recipientId], end: [recipientId, END] })) {
    all.push(unpack(key, value));
  }
  for (const n of all) removeNotification(store, n);
  return all.length;
}
