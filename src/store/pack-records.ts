// Migrations 6, 8, 9 and 11 (docs/disk.md): status and notification records rewritten without what their keys
// and their authors' addresses already say (store/status-packing.ts, store/notifications.ts), status records
// compressed, and the id-only keyspaces packed (store/id-keys.ts). Idempotent: what is already in the new
// form is left alone. Space comes back to the file system with `warren compact`.
import type { Database, Key, RootDatabase } from "lmdb";
import { KEYSPACES, type KeyspaceName } from "./keys.ts";
import { STATUS_COMPRESSION_THRESHOLD } from "./status-compression.ts";
import { packNotification, type StoredNotification } from "./notifications.ts";
import { packStatus, unpackStatus, type StoredStatus } from "./status-packing.ts";
import type { NotificationRecord } from "../model/notifications.ts";
import type { Store } from "./handle.ts";

const CHUNK = 10_000;

/** Calls `visit` on every record of a keyspace, a chunk of keys read before any of it is rewritten. */
function eachRecord<V>(keyspace: Database<any, any>, isRecordKey: (key: Key) => boolean, visit: (key: Key, value: V) => void): void {
  let start: Key | undefined;
  for (;;) {
    const chunk: { key: Key; value: V }[] = [];
    for (const { key, value } of keyspace.getRange({ start, limit: CHUNK + 1 })) {
      if (start !== undefined && chunk.length === 0 && sameKey(key, start)) continue;
      if (chunk.length === CHUNK) break;
      chunk.push({ key, value: value as V });
    }
    if (chunk.length === 0) return;
    for (const { key, value } of chunk) if (isRecordKey(key)) visit(key, value);
    start = chunk[chunk.length - 1]!.key;
  }
}

/**
 * Migration 8: every status record stored plain and large enough to be compressed (STATUSES_OPTIONS) is put
 * again, which stores it LZ4-compressed. Its raw bytes tell which: a compressed record starts with 254.
 */
export function compressStatuses(store: Store): void {
  // Every lmdb-js database can open its environment's other sub-databases; the types say so of the root only.
  const raw = (store.db.statuses as unknown as RootDatabase).openDB({ name: KEYSPACES.statuses, encoding: "binary", keyEncoding: "ordered-binary", compression: false });
  const plain = (value: Buffer) => value.length >= STATUS_COMPRESSION_THRESHOLD && value[0]! < COMPRESSED_MARK;
  // Read again per key: the values of a range read may share one buffer.
  eachRecord<unknown>(raw, (key) => typeof key === "string", (key) => {
    if (plain(raw.getBinary(key)!)) store.db.statuses.put(key, store.db.statuses.get(key));
  });
}

/** lmdb-js reads a value whose first byte is 250 or more as compressed. */
const COMPRESSED_MARK = 250;

const sameKey = (a: Key, b: Key) => JSON.stringify(a) === JSON.stringify(b);

export function packRecords(store: Store): void {
  eachRecord<StoredStatus>(store.db.statuses, (key) => typeof key === "string", (key, stored) => {
    if (stored.id === undefined && stored.uri === undefined) return;
    const status = unpackStatus(store, key as string, stored)!;
    store.db.statuses.put(key, packStatus(store, status));
  });
  eachRecord<StoredNotification>(store.db.notifications, Array.isArray, (key, stored) => {
    if (stored.id === undefined) return;
    store.db.notifications.put(key, packNotification(stored as NotificationRecord));
  });
}

/** The keyspaces packed by migration 9, each with the one it was before. */
export const PACKED_KEYSPACES = [
  ["legacyHomeReblogs", "homeReblogs"],
  ["legacyNotificationsByStatus", "notificationsByStatus"],
  ["legacyNotificationsByPair", "notificationsByPair"],
] as const;

/**
 * Migration 9: the entries of the id-only keyspaces, written as ordered-binary strings and msgpack values
 * until schema 8, moved into their packed keyspaces, and the old ones emptied. Inside the migration's write
 * transaction; a second run finds the old ones empty.
 */
export function packIdKeyspaces(store: Store): void {
  moveIntoPackedKeyspaces(store, PACKED_KEYSPACES);
}

/** The keyspaces packed by migration 11, each with the one it was before. */
export const PACKED_KEYSPACES_11 = [
  ["legacyStatusesByAccount", "statusesByAccount"],
  ["legacyStatusReplies", "statusReplies"],
  ["legacyReblogsByStatus", "reblogsByStatus"],
  ["legacyReblogOf", "reblogOf"],
  ["legacyFavourites", "favourites"],
  ["legacyFavouritesByStatus", "favouritesByStatus"],
  ["legacyFavouriteOf", "favouriteOf"],
] as const;

/** Migration 11: as migration 9, for the other keyspaces of ids only (favourites, replies, reblogs, an account's statuses). */
export function packMoreIdKeyspaces(store: Store): void {
  moveIntoPackedKeyspaces(store, PACKED_KEYSPACES_11);
}

function moveIntoPackedKeyspaces(store: Store, pairs: readonly (readonly [KeyspaceName, KeyspaceName])[]): void {
  for (const [legacy, packed] of pairs) {
    for (const { key, value } of store.db[legacy].getRange({}) as Iterable<{ key: unknown; value: string | null }>) {
      if (Array.isArray(key)) store.db[packed].put(key, value);
    }
    store.db[legacy].clearSync();
  }
}
