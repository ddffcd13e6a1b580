// Imports of /settings/import (domain/accounts/import.ts), kept under their own prefixes of the user_tokens
// keyspace (per-user records of the web pages): ["i", accountId, importId] → ImportRecord, and
// ["j", importId, index] → ImportRow, the rows still to be processed (removed as they are).
import { END, type Store } from "./handle.ts";
import type { ImportRecord } from "../model/accounts.ts";

export interface ImportRow {
  /** `user@domain`, as in the file */
  acct: string;
  reblogs?: boolean;
  notify?: boolean;
  languages?: string[] | null;
  /** muting: mute the account's notifications too */
  notifications?: boolean;
}

export function getImport(store: Store, accountId: string, importId: string): ImportRecord | undefined {
  return store.db.userTokens.get(["i", accountId, importId]);
}

/** Newest first. */
export function importsOf(store: Store, accountId: string, limit: number): ImportRecord[] {
  return [...store.db.userTokens.getRange({ start: ["i", accountId, END], end: ["i", accountId], reverse: true, limit })].map(({ value }) => value as ImportRecord);
}

/** Inside a write. */
export function putImport(store: Store, record: ImportRecord): void {
  store.db.userTokens.put(["i", record.accountId, record.id], record);
}

/** Inside a write: the import and any rows it still has. */
export function removeImport(store: Store, record: ImportRecord): void {
  store.db.userTokens.remove(["i", record.accountId, record.id]);
  for (const key of store.db.userTokens.getKeys({ start: ["j", record.id], end: ["j", record.id, END] })) store.db.userTokens.remove(key);
}

/** Inside a write. */
export function putImportRows(store: Store, importId: string, rows: readonly ImportRow[]): void {
  rows.forEach((row, index) => store.db.userTokens.put(["j", importId, index], row));
}

/** The next rows to process, in file order, with their keys. */
export function nextImportRows(store: Store, importId: string, limit: number): { key: unknown[]; row: ImportRow }[] {
  return [...store.db.userTokens.getRange({ start: ["j", importId], end: ["j", importId, END], limit })].map(({ key, value }) => ({ key: key as unknown[], row: value as ImportRow }));
}

/** Every row still to process (overwrite: which accounts to keep). */
export function* allImportRows(store: Store, importId: string): Iterable<ImportRow> {
  for (const { value } of store.db.userTokens.getRange({ start: ["j", importId], end: ["j", importId, END] })) yield value as ImportRow;
}

/** Inside a write: whether the row was still there. */
export function removeImportRow(store: Store, key: unknown[]): boolean {
  if (store.db.userTokens.get(key as any) === undefined) return false;
  store.db.userTokens.remove(key as any);
  return true;
}
