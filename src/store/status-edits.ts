// The versions of an edited status (GET /api/v1/statuses/:id/history): the original, stored by the first
// edit, then one per edit, oldest first. Typed reads and writes only; the rules live in domain/statuses/edit.ts.
import { END, type Store } from "./handle.ts";
import type { StatusEditRecord } from "../model/statuses.ts";

/** Inside a write. */
export function putStatusEdit(store: Store, edit: StatusEditRecord): void {
  store.db.statusEdits.put([edit.statusId, edit.id], edit);
}

/** A status's versions, oldest first (none until it is first edited). */
export function statusEdits(store: Store, statusId: string): StatusEditRecord[] {
  const out: StatusEditRecord[] = [];
  for (const { value } of store.db.statusEdits.getRange({ start: [statusId], end: [statusId, END] })) out.push(value);
  return out;
}

/** Inside a write: forgets a removed status's versions. */
export function removeStatusEdits(store: Store, statusId: string): void {
  for (const key of store.db.statusEdits.getKeys({ start: [statusId], end: [statusId, END] })) store.db.statusEdits.remove(key);
}
