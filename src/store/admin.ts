// Moderation records in the `moderation` keyspace (keys.ts): instance-wide domain blocks (federation enforces
// them; docs/admin.md), e-mail domain blocks and canonical e-mail blocks (sign-up refuses their addresses), each
// with a name index, and the daily history of refused sign-ups per e-mail domain block. No rules here:
// src/domain/admin/ has them.
import { scanPage } from "./paging.ts";

import type { AccountWarningRecord, DomainBlockRecord, EmailDomainBlockRecord } from "../model/moderation.ts";
import type { PageQuery } from "../model/paging.ts";
import type { CanonicalEmailBlockRecord, DomainAllowRecord } from "../model/moderation.ts";
import { END, type Store } from "./handle.ts";

export interface EmailBlockDay {
  /** refused (or held) sign-up attempts that day */
  uses: number;
  /** distinct addresses among them */
  accounts: number;
}

const DOMAIN_BLOCK = "domain_block";
const DOMAIN_BLOCK_NAME = "domain_block_name";
const EMAIL_BLOCK = "email_block";
const EMAIL_BLOCK_NAME = "email_block_name";
const EMAIL_BLOCK_DAY = "email_block_day";
const EMAIL_BLOCK_SEEN = "email_block_seen";

// Domain blocks

export function getDomainBlock(store: Store, id: string): DomainBlockRecord | undefined {
  return store.db.moderation.get([DOMAIN_BLOCK, id]);
}

export function domainBlockByName(store: Store, domain: string): DomainBlockRecord | undefined {
  const id: string | undefined = store.db.moderation.get([DOMAIN_BLOCK_NAME, domain]);
  return id ? getDomainBlock(store, id) : undefined;
}

/** Inside a write: a new block or new settings for one (its domain never changes). */
export function putDomainBlock(store: Store, block: DomainBlockRecord): void {
  store.db.moderation.put([DOMAIN_BLOCK, block.id], block);
  store.db.moderation.put([DOMAIN_BLOCK_NAME, block.domain], block.id);
}

export function removeDomainBlock(store: Store, block: DomainBlockRecord): void {
  store.db.moderation.remove([DOMAIN_BLOCK, block.id]);
  store.db.moderation.remove([DOMAIN_BLOCK_NAME, block.domain]);
}

/** A page of domain blocks, newest first (Mastodon's cursor paging by id). */
export function pageDomainBlocks(store: Store, query: PageQuery): DomainBlockRecord[] {
  return scanPage<DomainBlockRecord>(store.db.moderation, [DOMAIN_BLOCK], query).map((row) => row.value);
}

/** Every domain block, oldest first (the CLI's list; instances hold hundreds, not millions). */
export function allDomainBlocks(store: Store): DomainBlockRecord[] {
  const out: DomainBlockRecord[] = [];
  for (const { value } of store.db.moderation.getRange({ start: [DOMAIN_BLOCK], end: [DOMAIN_BLOCK, END] })) out.push(value);
  return out;
}

// E-mail domain blocks

export function getEmailDomainBlock(store: Store, id: string): EmailDomainBlockRecord | undefined {
  return store.db.moderation.get([EMAIL_BLOCK, id]);
}

export function emailDomainBlockByName(store: Store, domain: string): EmailDomainBlockRecord | undefined {
  const id: string | undefined = store.db.moderation.get([EMAIL_BLOCK_NAME, domain]);
  return id ? getEmailDomainBlock(store, id) : undefined;
}

export function putEmailDomainBlock(store: Store, block: EmailDomainBlockRecord): void {
  store.db.moderation.put([EMAIL_BLOCK, block.id], block);
  store.db.moderation.put([EMAIL_BLOCK_NAME, block.domain], block.id);
}

/** Inside a write: the block, its name and its history. */
export function removeEmailDomainBlock(store: Store, block: EmailDomainBlockRecord): void {
  store.db.moderation.remove([EMAIL_BLOCK, block.id]);
  store.db.moderation.remove([EMAIL_BLOCK_NAME, block.domain]);
  for (const family of [EMAIL_BLOCK_DAY, EMAIL_BLOCK_SEEN]) {
    for (const key of store.db.moderation.getKeys({ start: [family, block.id], end: [family, block.id, END] })) {
      store.db.moderation.remove(key);
    }
  }
}

export function pageEmailDomainBlocks(store: Store, query: PageQuery): EmailDomainBlockRecord[] {
  return scanPage<EmailDomainBlockRecord>(store.db.moderation, [EMAIL_BLOCK], query).map((row) => row.value);
}

/** Inside a write: one more attempt on `day` (days since the epoch); `addressHash` counts distinct addresses. */
export function countEmailBlockAttempt(store: Store, blockId: string, day: number, addressHash: string): void {
  const key = [EMAIL_BLOCK_DAY, blockId, day];
  const current: EmailBlockDay = store.db.moderation.get(key) ?? { uses: 0, accounts: 0 };
  const seenKey = [EMAIL_BLOCK_SEEN, blockId, day, addressHash];
  const seen = store.db.moderation.doesExist(seenKey);
  if (!seen) store.db.moderation.put(seenKey, null);
  store.db.moderation.put(key, { uses: current.uses + 1, accounts: current.accounts + (seen ? 0 : 1) });
  // Only the last week is ever shown: older days go as new ones come.
  for (const family of [EMAIL_BLOCK_DAY, EMAIL_BLOCK_SEEN]) {
    for (const old of store.db.moderation.getKeys({ start: [family, blockId], end: [family, blockId, day - HISTORY_DAYS] })) {
      store.db.moderation.remove(old);
    }
  }
}

/** Days of history an e-mail domain block keeps (and its entity shows). */
export const HISTORY_DAYS = 7;

export function emailBlockDay(store: Store, blockId: string, day: number): EmailBlockDay {
  return store.db.moderation.get([EMAIL_BLOCK_DAY, blockId, day]) ?? { uses: 0, accounts: 0 };
}

// Warnings (Mastodon's account strikes): what staff did to an account and told its owner

const WARNING = "warning";

export function getAccountWarning(store: Store, accountId: string, id: string): AccountWarningRecord | undefined {
  return store.db.moderation.get([WARNING, accountId, id]);
}

export function insertAccountWarning(store: Store, warning: AccountWarningRecord): void {
  store.db.moderation.put([WARNING, warning.accountId, warning.id], warning);
}

// Canonical e-mail blocks (Mastodon's CanonicalEmailBlock): the SHA-256 of a canonical address, and its index.

const CANONICAL_BLOCK = "canonical_block";
const CANONICAL_BLOCK_HASH = "canonical_block_hash";

export function getCanonicalEmailBlock(store: Store, id: string): CanonicalEmailBlockRecord | undefined {
  return store.db.moderation.get([CANONICAL_BLOCK, id]);
}

export function canonicalEmailBlockByHash(store: Store, hash: string): CanonicalEmailBlockRecord | undefined {
  const id: string | undefined = store.db.moderation.get([CANONICAL_BLOCK_HASH, hash]);
  return id ? getCanonicalEmailBlock(store, id) : undefined;
}

/** Inside a write. */
export function putCanonicalEmailBlock(store: Store, block: CanonicalEmailBlockRecord): void {
  store.db.moderation.put([CANONICAL_BLOCK, block.id], block);
  store.db.moderation.put([CANONICAL_BLOCK_HASH, block.hash], block.id);
}

/** Inside a write. */
export function removeCanonicalEmailBlock(store: Store, block: CanonicalEmailBlockRecord): void {
  store.db.moderation.remove([CANONICAL_BLOCK, block.id]);
  store.db.moderation.remove([CANONICAL_BLOCK_HASH, block.hash]);
}

export function pageCanonicalEmailBlocks(store: Store, query: PageQuery): CanonicalEmailBlockRecord[] {
  return scanPage<CanonicalEmailBlockRecord>(store.db.moderation, [CANONICAL_BLOCK], query).map((row) => row.value);
}

// Domain allows (Mastodon's DomainAllow, the list limited federation mode federates with), with a name index.

const DOMAIN_ALLOW = "domain_allow";
const DOMAIN_ALLOW_NAME = "domain_allow_name";

export function getDomainAllow(store: Store, id: string): DomainAllowRecord | undefined {
  return store.db.moderation.get([DOMAIN_ALLOW, id]);
}

export function domainAllowByName(store: Store, domain: string): DomainAllowRecord | undefined {
  const id: string | undefined = store.db.moderation.get([DOMAIN_ALLOW_NAME, domain]);
  return id ? getDomainAllow(store, id) : undefined;
}

/** Inside a write. */
export function putDomainAllow(store: Store, allow: DomainAllowRecord): void {
  store.db.moderation.put([DOMAIN_ALLOW, allow.id], allow);
  store.db.moderation.put([DOMAIN_ALLOW_NAME, allow.domain], allow.id);
}

/** Inside a write. */
export function removeDomainAllow(store: Store, allow: DomainAllowRecord): void {
  store.db.moderation.remove([DOMAIN_ALLOW, allow.id]);
  store.db.moderation.remove([DOMAIN_ALLOW_NAME, allow.domain]);
}

export function pageDomainAllows(store: Store, query: PageQuery): DomainAllowRecord[] {
  return scanPage<DomainAllowRecord>(store.db.moderation, [DOMAIN_ALLOW], query).map((row) => row.value);
}
