// Domains a user blocks (Mastodon's AccountDomainBlock; keyspace `account_choices`, families by the key's first element):
//   ["d", accountId, domain]  → UserDomainBlockRecord
//   ["di", accountId, blockId] → domain   (GET /api/v1/domain_blocks, paged by block id)
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { UserDomainBlockRecord } from "../model/relationships.ts";

export function getUserDomainBlock(store: Store, accountId: string, domain: string): UserDomainBlockRecord | undefined {
  return store.db.accountChoices.get(["d", accountId, domain]);
}

export function blocksDomain(store: Store, accountId: string, domain: string): boolean {
  return store.db.accountChoices.doesExist(["d", accountId, domain]);
}

/** Does the user block the domain of this account (never for local ones)? */
export function blocksDomainOf(store: Store, accountId: string, account: { domain: string | null } | null | undefined): boolean {
  return !!account?.domain && blocksDomain(store, accountId, account.domain);
}

/** Inside a write. */
export function putUserDomainBlock(store: Store, accountId: string, domain: string, record: UserDomainBlockRecord): void {
  store.db.accountChoices.put(["d", accountId, domain], record);
  store.db.accountChoices.put(["di", accountId, record.id], domain);
}

/** Inside a write; false when there was none. */
export function removeUserDomainBlock(store: Store, accountId: string, domain: string): boolean {
  const record = getUserDomainBlock(store, accountId, domain);
  if (!record) return false;
  store.db.accountChoices.remove(["d", accountId, domain]);
  store.db.accountChoices.remove(["di", accountId, record.id]);
  return true;
}

export function pageUserDomainBlocks(store: Store, accountId: string, query: PageQuery): { id: string; domain: string }[] {
  return scanPage<string>(store.db.accountChoices, ["di", accountId], query).map((row) => ({ id: row.key[2], domain: row.value }));
}

/** Inside a write: every domain the account blocks, unblocked (its data removal). */
export function removeUserDomainBlocksOf(store: Store, accountId: string): void {
  for (const key of [...store.db.accountChoices.getKeys({ start: ["d", accountId], end: ["d", accountId, END] })]) store.db.accountChoices.remove(key);
  for (const key of [...store.db.accountChoices.getKeys({ start: ["di", accountId], end: ["di", accountId, END] })]) store.db.accountChoices.remove(key);
}
