// Endorsed accounts (Mastodon's AccountPin; keyspace `account_choices`, shared with user-domain-blocks.ts and
// thread-mutes.ts, families by the key's first element):
//   ["e", accountId, targetId]       → EndorsementRecord
//   ["ei", accountId, endorsementId] → targetId   (the lists, paged by endorsement id)
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { EndorsementRecord } from "../model/accounts.ts";
import type { PageQuery } from "../model/paging.ts";

export function getEndorsement(store: Store, accountId: string, targetId: string): EndorsementRecord | undefined {
  return store.db.accountChoices.get(["e", accountId, targetId]);
}

/** Inside a write. */
export function putEndorsement(store: Store, accountId: string, targetId: string, record: EndorsementRecord): void {
  store.db.accountChoices.put(["e", accountId, targetId], record);
  store.db.accountChoices.put(["ei", accountId, record.id], targetId);
}

/** Inside a write. */
export function removeEndorsement(store: Store, accountId: string, targetId: string): void {
  const record = getEndorsement(store, accountId, targetId);
  if (!record) return;
  store.db.accountChoices.remove(["e", accountId, targetId]);
  store.db.accountChoices.remove(["ei", accountId, record.id]);
}

/** A page of the account's endorsements, newest first; `accept` filters without counting against the limit. */
export function pageEndorsements(store: Store, accountId: string, query: PageQuery, accept: (targetId: string) => boolean): { id: string; targetId: string }[] {
  return scanPage<string>(store.db.accountChoices, ["ei", accountId], query, (row) => accept(row.value)).map((row) => ({ id: row.key[2], targetId: row.value }));
}

/** Inside a write: every endorsement the account made (its data removal). */
export function removeEndorsementsOf(store: Store, accountId: string): void {
  for (const key of [...store.db.accountChoices.getKeys({ start: ["e", accountId], end: ["e", accountId, END] })]) store.db.accountChoices.remove(key);
  for (const key of [...store.db.accountChoices.getKeys({ start: ["ei", accountId], end: ["ei", accountId, END] })]) store.db.accountChoices.remove(key);
}
