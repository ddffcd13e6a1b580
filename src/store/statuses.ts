// Statuses (and reblogs, which are statuses with reblogOfId) with their indexes: by account, replies by
// parent, reblogs by original. Typed reads and writes only; the rules live in domain/statuses.
import { END, type Store } from "./handle.ts";
import { scanPage, type Row } from "./paging.ts";
import { joinedAmong } from "./statuses-interactions.ts";
import { KeptRecords, noteRead, versionName } from "./versions.ts";
import { packStatus, unpackStatus } from "./status-packing.ts";
import type { PageQuery } from "../model/paging.ts";
import type { StatusCounter, StatusRecord } from "../model/statuses.ts";

/** Per thread; statuses are read many times per page (feeds, reblogs' originals, the loader). */
const keptStatuses = new KeptRecords<StatusRecord>("kept statuses", 5_000);

export function getStatus(store: Store, id: string): StatusRecord | undefined {
  return keptStatuses.get(store, id, versionName.status(id), () => readStatus(store, id));
}

/** The stored record, not kept (scans that read each status once). */
export function readStatus(store: Store, id: string): StatusRecord | undefined {
  return unpackStatus(store, id, store.db.statuses.get(id));
}

/** Inside a write: a new status (or reblog) with every index it belongs to. */
export function insertStatus(store: Store, status: StatusRecord): void {
  store.db.statuses.put(status.id, packStatus(store, status));
  store.db.statusesByAccount.put([status.accountId, status.id], null);
  if (!status.local) store.db.statusesByUri.put(status.uri, status.id);
  if (status.inReplyToId) store.db.statusReplies.put([status.inReplyToId, status.id], status.accountId);
  if (status.reblogOfId) {
    store.db.reblogsByStatus.put([status.reblogOfId, status.id], status.accountId);
    store.db.reblogOf.put([status.accountId, status.reblogOfId], status.id);
  }
}

/** Inside a write: replaces the record (indexes unchanged). */
export function putStatus(store: Store, status: StatusRecord): void {
  store.db.statuses.put(status.id, packStatus(store, status));
}

/**
 * Inside a write: adds `delta` to a stored counter (never below zero). Counters move in the transaction
 * that adds or removes the row they count, reading the record inside it (see CACHED in db.ts), so a count
 * always equals its live rows; `warren cache recount` recomputes them from those rows.
 */
export function adjustStatusCounter(store: Store, id: string, counter: StatusCounter, delta: number): void {
  const status = getStatus(store, id);
  if (!status) return;
  putStatus(store, { ...status, [counter]: Math.max(0, status[counter] + delta) });
}

/** Inside a write: forgets the record itself (the last step of removal). */
export function removeStatusRecord(store: Store, id: string): void {
  const status = getStatus(store, id);
  if (status && !status.local && store.db.statusesByUri.get(status.uri) === id) store.db.statusesByUri.remove(status.uri);
  store.db.statuses.remove(id);
}

/** The id of the status (or reblog) from another server whose ActivityPub id is `uri`, if stored. */
export function remoteStatusIdByUri(store: Store, uri: string): string | undefined {
  return store.db.statusesByUri.get(uri);
}

/** Inside a write: drops the by-account row; true when it was there (so counters move once). */
export function removeFromAccount(store: Store, status: StatusRecord): boolean {
  const key = [status.accountId, status.id];
  if (!store.db.statusesByAccount.doesExist(key)) return false;
  store.db.statusesByAccount.remove(key);
  return true;
}

/** Inside a write: the reply row of a status linked to its parent after it was stored (thread fetching). */
export function addReplyRow(store: Store, status: StatusRecord): void {
  if (status.inReplyToId) store.db.statusReplies.put([status.inReplyToId, status.id], status.accountId);
}

/** Inside a write: drops the reply row under the parent; true when it was there. */
export function removeFromParent(store: Store, status: StatusRecord): boolean {
  if (!status.inReplyToId) return false;
  const key = [status.inReplyToId, status.id];
  if (!store.db.statusReplies.doesExist(key)) return false;
  store.db.statusReplies.remove(key);
  return true;
}

/** Direct replies of a status, oldest first. */
export function replyIds(store: Store, parentId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.statusReplies.getKeys({ start: [parentId], end: [parentId, END] })) {
    out.push((key as string[])[1]!);
  }
  return out;
}

/** Inside a write: drops the reply rows under a removed status (its replies stay, detached). */
export function removeReplyRows(store: Store, parentId: string): void {
  for (const key of store.db.statusReplies.getKeys({ start: [parentId], end: [parentId, END] })) {
    store.db.statusReplies.remove(key);
  }
}

/** A page of an account's statuses and reblogs, newest first, by status id. */
export function pageAccountStatuses(
  store: Store,
  accountId: string,
  query: PageQuery,
  accept: (status: StatusRecord) => boolean,
): StatusRecord[] {
  noteRead(versionName.accountStatuses(accountId));
  const out: StatusRecord[] = [];
  scanPage<null>(store.db.statusesByAccount, [accountId], query, (row: Row<null>) => {
    const status = getStatus(store, row.key[1]);
    const shown = !!status && accept(status);
    query.examined?.(row.key[1], shown);
    if (shown) out.push(status);
    return shown;
  });
  return query.minId ? out.reverse() : out;
}

// Reblogs

/** The id of `accountId`'s live reblog of `originalId`, if any. */
export function reblogIdOf(store: Store, accountId: string, originalId: string): string | undefined {
  return store.db.reblogOf.get([accountId, originalId]);
}

/** Of `originalIds`, those `accountId` has a live reblog of (one range read: statuses-interactions.ts joinedAmong). */
export function rebloggedAmong(store: Store, accountId: string, originalIds: readonly string[]): Set<string> {
  return joinedAmong(store.db.reblogOf, accountId, originalIds);
}

/** Inside a write: the account no longer counts as having reblogged the original (the wrapper is discarded);
 * true when it counted until now (so the counter moves once). */
export function forgetReblog(store: Store, wrapper: StatusRecord): boolean {
  if (!wrapper.reblogOfId) return false;
  const key = [wrapper.accountId, wrapper.reblogOfId];
  if (store.db.reblogOf.get(key) !== wrapper.id) return false;
  store.db.reblogOf.remove(key);
  return true;
}

/** Inside a write: drops a reblogged_by row. */
export function removeReblogRow(store: Store, originalId: string, reblogId: string): void {
  store.db.reblogsByStatus.remove([originalId, reblogId]);
}

/** Reblog wrapper ids of a status (any state), oldest first. */
export function reblogIdsOfStatus(store: Store, originalId: string, limit = Infinity): string[] {
  const out: string[] = [];
  for (const key of store.db.reblogsByStatus.getKeys({ start: [originalId], end: [originalId, END] })) {
    out.push((key as string[])[1]!);
    if (out.length >= limit) break;
  }
  return out;
}

export interface Reblogger {
  /** the wrapper's id: the cursor of reblogged_by */
  reblogId: string;
  accountId: string;
}

/** A page of who reblogged a status, newest first; rows of discarded wrappers are skipped. */
export function pageRebloggers(store: Store, originalId: string, query: PageQuery, accept: (row: Reblogger) => boolean): Reblogger[] {
  const rows = scanPage<string>(store.db.reblogsByStatus, [originalId], query, (row) => {
    return reblogIdOf(store, row.value, originalId) === row.key[1] && accept({ reblogId: row.key[1], accountId: row.value });
  });
  return rows.map((row) => ({ reblogId: row.key[1], accountId: row.value }));
}

// Idempotency keys (POST /api/v1/statuses)

export interface IdempotencyEntry {
  statusId: string;
  at: number;
}

export function getIdempotency(store: Store, accountId: string, key: string): IdempotencyEntry | undefined {
  return store.db.idempotency.get([accountId, key]);
}

/** Inside a write. */
export function putIdempotency(store: Store, accountId: string, key: string, entry: IdempotencyEntry): void {
  store.db.idempotency.put([accountId, key], entry);
}

/** Inside a write: forgets the key unless it was reused for a later status. */
export function expireIdempotency(store: Store, accountId: string, key: string, statusId: string): void {
  if (getIdempotency(store, accountId, key)?.statusId === statusId) store.db.idempotency.remove([accountId, key]);
}
