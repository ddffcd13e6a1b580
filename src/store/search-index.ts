// The embedded search engine's storage (src/search/embedded.ts): posting rows and the documents as indexed,
// in two keyspaces (keys.ts: searchPostings, searchDocs; rows packed by search-rows.ts). Typed reads and
// writes only: what a word is, and how a query is answered, live in src/search/.
//
// - Statuses: "s<word>" → the ids of the statuses with that word (a sorted run, newest last), and
//   ["s", statusId] → the words it was indexed under, so that it can be removed or replaced, and so that a
//   query can check a candidate's words in one read.
// - Accounts: "a<prefix>" → the accounts with a word starting with that prefix (every prefix of every word,
//   up to ACCOUNT_PREFIX_LENGTH characters), best ranked first; "a@<acct>" → the account with that acct.
//   ["a", accountId] → what it was indexed as (its acct, rank and words).
// - Tags: ["t", folded name, name] → uses.
import { END, fitsInKey, type Store } from "./handle.ts";
import { accountRow, isRowId, statusBound, statusRow, type AccountRank } from "./search-rows.ts";
import { tagFeed } from "./timelines.ts";

const STATUS = "s";
const ACCOUNT = "a";
const TAG = "t";

/** Accounts are listed under the prefixes of their words up to this length; longer query words are
 * looked up by their first ACCOUNT_PREFIX_LENGTH characters, then checked against the account's words. */
export const ACCOUNT_PREFIX_LENGTH = 16;

// Statuses

const statusKey = (word: string) => STATUS + word;

/** The words a status is indexed under, or undefined when it is not in the index. */
export function indexedStatusWords(store: Store, statusId: string): string[] | undefined {
  const words: string | undefined = store.db.searchDocs.get([STATUS, statusId]);
  return words === undefined ? undefined : words.split(" ");
}

export interface StatusEntry {
  statusId: string;
  /** the words to index it under; none may contain a space */
  words: readonly string[];
}

/**
 * Inside a write: indexes statuses under their words, replacing whatever they were indexed under before.
 * Words too long for a key are left out.
 */
export function putStatusPostings(store: Store, entries: readonly StatusEntry[]): void {
  // A status given twice is indexed as given last.
  const latest = new Map(entries.map((entry) => [entry.statusId, entry.words]));
  for (const [statusId, words] of latest) {
    if (!isRowId(statusId)) continue;
    const kept = words.filter((word) => word && fitsInKey(statusKey(word)));
    const previous = indexedStatusWords(store, statusId);
    const next = new Set(kept);
    if (previous) {
      for (const word of previous) if (!next.has(word)) store.db.searchPostings.remove(statusKey(word), statusRow(statusId));
    }
    const had = new Set(previous);
    for (const word of kept) if (!had.has(word)) store.db.searchPostings.put(statusKey(word), statusRow(statusId));
    store.db.searchDocs.put([STATUS, statusId], kept.join(" "));
  }
}

/** Inside a write: takes a status out of the index; true when it was there. */
export function removeStatusPostings(store: Store, statusId: string): boolean {
  const previous = indexedStatusWords(store, statusId);
  if (!previous) return false;
  for (const word of previous) store.db.searchPostings.remove(statusKey(word), statusRow(statusId));
  store.db.searchDocs.remove([STATUS, statusId]);
  return true;
}

/** How many statuses have this word (one B-tree lookup, however many there are). */
export function countStatusPostings(store: Store, word: string): number {
  if (!fitsInKey(word)) return 0;
  return store.db.searchPostings.getValuesCount(statusKey(word));
}

/** Indexed status words that start with `prefix`, in word order, at most `limit`. */
export function statusWordsStartingWith(store: Store, prefix: string, limit: number): string[] {
  if (!fitsInKey(prefix)) return [];
  const out: string[] = [];
  const start = statusKey(prefix);
  for (const key of store.db.searchPostings.getKeys({ start, end: start + END, limit })) out.push((key as string).slice(STATUS.length));
  return out;
}

/** Ids of the statuses with this word, newest first, only those below `belowId` when given. Lazy. */
export function statusPostings(store: Store, word: string, belowId?: string): Iterable<string> {
  if (!fitsInKey(word)) return [];
  const range = belowId && isRowId(belowId) ? { start: statusBound(belowId), reverse: true } : { reverse: true };
  return store.db.searchPostings.getValues(statusKey(word), range) as Iterable<string>;
}

/** Does the status have this word? (A point lookup among the word's rows; outside writes only.) */
export function statusHasWord(store: Store, word: string, statusId: string): boolean {
  if (!fitsInKey(word) || !isRowId(statusId)) return false;
  return store.db.searchPostings.doesExist(statusKey(word), statusBound(statusId));
}

// Accounts

export interface IndexedAccount extends AccountRank {
  /** lower-case `user` or `user@domain` */
  acct: string;
  discoverable: boolean;
  /** words listed under their prefixes (none for undiscoverable accounts) */
  words: string[];
}

type AccountDoc = [acct: string, followersCount: number, lastStatusAt: number | null, discoverable: boolean, words: string];

const accountKey = (prefix: string) => ACCOUNT + prefix;
const acctKey = (acct: string) => `${ACCOUNT}@${acct}`;

/** Every prefix of every word, up to ACCOUNT_PREFIX_LENGTH characters, once. */
export function accountPrefixes(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const word of words) {
    const chars = [...word].slice(0, ACCOUNT_PREFIX_LENGTH);
    let prefix = "";
    for (const char of chars) out.add((prefix += char));
  }
  return [...out].filter((prefix) => fitsInKey(accountKey(prefix)));
}

export function indexedAccount(store: Store, accountId: string): IndexedAccount | undefined {
  const doc: AccountDoc | undefined = store.db.searchDocs.get([ACCOUNT, accountId]);
  if (!doc) return undefined;
  const [acct, followersCount, lastStatusAt, discoverable, words] = doc;
  return { acct, followersCount, lastStatusAt, discoverable, words: words ? words.split(" ") : [] };
}

function removeAccountRows(store: Store, accountId: string, indexed: IndexedAccount): void {
  if (fitsInKey(acctKey(indexed.acct))) store.db.searchPostings.remove(acctKey(indexed.acct), accountRow(accountId, indexed));
  for (const prefix of accountPrefixes(indexed.words)) store.db.searchPostings.remove(accountKey(prefix), accountRow(accountId, indexed));
}

/** Inside a write: indexes an account (replacing what it was indexed as): its exact acct, and its words'
 * prefixes when it has words. */
export function putAccountPostings(store: Store, accountId: string, account: IndexedAccount): void {
  if (!isRowId(accountId)) return;
  const previous = indexedAccount(store, accountId);
  if (previous) removeAccountRows(store, accountId, previous);
  if (fitsInKey(acctKey(account.acct))) store.db.searchPostings.put(acctKey(account.acct), accountRow(accountId, account));
  for (const prefix of accountPrefixes(account.words)) store.db.searchPostings.put(accountKey(prefix), accountRow(accountId, account));
  const words = account.words.filter((word) => !word.includes(" ")).join(" ");
  const doc: AccountDoc = [account.acct, account.followersCount, account.lastStatusAt, account.discoverable, words];
  store.db.searchDocs.put([ACCOUNT, accountId], doc);
}

/** Inside a write: takes an account out of the index; true when it was there. */
export function removeAccountPostings(store: Store, accountId: string): boolean {
  const previous = indexedAccount(store, accountId);
  if (!previous) return false;
  removeAccountRows(store, accountId, previous);
  store.db.searchDocs.remove([ACCOUNT, accountId]);
  return true;
}

/** The accounts indexed with exactly this (lower-case) acct: one, or none. */
export function accountIdsByAcct(store: Store, acct: string): string[] {
  if (!fitsInKey(acctKey(acct))) return [];
  return [...(store.db.searchPostings.getValues(acctKey(acct)) as Iterable<string>)];
}

/** How many accounts have a word starting with `prefix` (at most ACCOUNT_PREFIX_LENGTH characters). */
export function countAccountPostings(store: Store, prefix: string): number {
  if (!fitsInKey(accountKey(prefix))) return 0;
  return store.db.searchPostings.getValuesCount(accountKey(prefix));
}

/** Ids of the accounts with a word starting with `prefix`, best ranked first. Lazy. */
export function accountPostings(store: Store, prefix: string): Iterable<string> {
  if (!fitsInKey(accountKey(prefix))) return [];
  return store.db.searchPostings.getValues(accountKey(prefix)) as Iterable<string>;
}

/** Compares two accounts as their rows sort: the better ranked one first. */
export function compareAccountRanks(a: { id: string } & AccountRank, b: { id: string } & AccountRank): number {
  return Buffer.compare(accountRow(a.id, a), accountRow(b.id, b));
}

// Tags

export interface IndexedTag {
  name: string;
  /** the name folded (tokenize.ts fold): what prefixes match */
  folded: string;
  uses: number;
}

/** Inside a write: adds or replaces a tag. */
export function putTag(store: Store, tag: IndexedTag): void {
  if (!fitsInKey(tag.folded, tag.name)) return;
  store.db.searchDocs.put([TAG, tag.folded, tag.name], tag.uses);
}

/** Tags whose folded name starts with `prefix`, in name order, at most `limit`. */
export function tagsStartingWith(store: Store, prefix: string, limit: number): IndexedTag[] {
  if (!fitsInKey(prefix)) return [];
  const out: IndexedTag[] = [];
  for (const { key, value } of store.db.searchDocs.getRange({ start: [TAG, prefix], end: [TAG, prefix + END], limit })) {
    const [, folded, name] = key as [string, string, string];
    out.push({ name, folded, uses: value as number });
  }
  return out;
}

/**
 * Uses of a hashtag as search ranks them: the public statuses that carry it, i.e. the rows of its hashtag
 * timeline (store/timelines.ts), counted inside LMDB without reading them (about 1 ms per 30,000 rows).
 */
export function tagUses(store: Store, name: string): number {
  const feed = tagFeed(name);
  if (!fitsInKey(feed)) return 0;
  return store.db.publicFeeds.getCount({ start: [feed], end: [feed, END] });
}

/** Empties the index (both keyspaces hold nothing else). */
export async function clearSearchIndex(store: Store): Promise<void> {
  await Promise.all([store.db.searchPostings.clearAsync(), store.db.searchDocs.clearAsync()]);
}
