// The default search engine: an inverted index in our own LMDB environment (store/search-index.ts), so a
// single box searches with nothing else running. How it answers (docs/search.md):
//
// - Statuses: every query word must be in the status, the last one as a prefix of one of its words. The
//   rarest of the query's whole words, or the words the prefix stands for when they are rarer together,
//   "drive": their rows are read newest first (a reverse scan, from max_id on), and each candidate is
//   checked against the other parts of the query: by walking down their rows alongside the candidates
//   when they are about as common, else by a point lookup per word (for the prefix, one read of the
//   candidate's indexed words). An author (`accountId`) is one more whole word: "@<accountId>" lists an
//   author's statuses.
// - Accounts: the exact acct first, then accounts with a word starting with each query word, best first
//   (rows under a prefix are sorted by followers, then last status). Undiscoverable accounts are indexed
//   under their exact acct only.
// - Tags: the folded name as a prefix; exact name first, then by uses.
//
// Work per query is bounded (LIMITS): a query that would need more gives the matches found within it.
import type { AccountDocument, AccountQuery, Page, SearchEngine, StatusDocument, StatusQuery } from "./engine.ts";
import { documentWords, fold, NAME_MIN_LENGTH, queryWords, STATUS_MIN_LENGTH } from "./tokenize.ts";
import type { Store } from "../store/db.ts";
import {
  ACCOUNT_PREFIX_LENGTH, accountIdsByAcct, accountPostings, clearSearchIndex, compareAccountRanks, countAccountPostings,
  countStatusPostings, indexedAccount, indexedStatusWords, putAccountPostings, putStatusPostings, putTag, removeAccountPostings,
  removeStatusPostings, statusHasWord, statusPostings, statusWordsStartingWith, tagsStartingWith, type IndexedAccount,
} from "../store/search-index.ts";

/** The most work a query does; documented in docs/search.md ("Limits"). */
export const LIMITS = {
  /** Status rows a query reads (as candidates, and walked alongside them), per part of the query read so. */
  statusRows: 20_000,
  /** Words the last query word may stand for: the most used of the first `prefixScan` it starts. */
  prefixWords: 64,
  prefixScan: 512,
  /** Account rows a query reads as candidates (or accounts of `among` it checks). */
  accountRows: 5_000,
  /** Tag names a query examines (in name order). */
  tagRows: 1_000,
  /** Words a status is indexed under at most (the first ones of its text). */
  statusWords: 1_000,
  /** offset + limit at most: deeper pages are empty. */
  depth: 1_000,
};

export type Limits = { readonly [K in keyof typeof LIMITS]: number };

/** The word that stands for a status's author among its words; no tokenised word contains `@`. */
const authorWord = (accountId: string) => `@${accountId}`;

/** `limits` replaces some of LIMITS (tests of the bounds use small ones). */
export function createEmbeddedEngine(store: Store, limits: Partial<Limits> = {}): SearchEngine {
  const bounds: Limits = { ...LIMITS, ...limits };
  return {
    name: "embedded",
    async start() {},

    async indexAccounts(documents) {
      const indexed = documents.map((document) => [document.id, accountEntry(document)] as const);
      await store.write(() => {
        for (const [id, entry] of indexed) putAccountPostings(store, id, entry);
      });
    },

    async indexStatuses(documents) {
      const entries = documents.map((document) => ({ statusId: document.id, words: statusWords(document, bounds) }));
      await store.write(() => putStatusPostings(store, entries));
    },

    async indexTags(documents) {
      await store.write(() => {
        for (const tag of documents) putTag(store, { name: tag.name, folded: fold(tag.name), uses: tag.uses });
      });
    },

    async removeAccounts(ids) {
      await store.write(() => {
        for (const id of ids) removeAccountPostings(store, id);
      });
    },

    async removeStatuses(ids) {
      await store.write(() => {
        for (const id of ids) removeStatusPostings(store, id);
      });
    },

    async searchAccounts(q, query) {
      return searchAccounts(store, bounds, q, query);
    },

    async searchTags(q, query) {
      return searchTags(store, bounds, q, query);
    },

    async searchStatuses(q, query) {
      return searchStatuses(store, bounds, q, query);
    },

    async clear() {
      await clearSearchIndex(store);
    },
  };
}

// Documents → index entries

function statusWords(document: StatusDocument, limits: Limits): string[] {
  return [authorWord(document.accountId), ...documentWords(document.text, STATUS_MIN_LENGTH).slice(0, limits.statusWords)];
}

const acctOf = (document: Pick<AccountDocument, "username" | "domain">) =>
  (document.domain ? `${document.username}@${document.domain}` : document.username).toLowerCase();

function accountEntry(document: AccountDocument): IndexedAccount {
  const words = document.discoverable
    ? documentWords(`${document.username} ${document.domain ?? ""} ${document.displayName}`, NAME_MIN_LENGTH)
    : [];
  return {
    acct: acctOf(document),
    followersCount: document.followersCount,
    lastStatusAt: document.lastStatusAt,
    discoverable: document.discoverable,
    words,
  };
}

// Statuses

/** Rows of several words merged newest first, each id once: the statuses the last query word stands for. */
function* mergeNewestFirst(sources: Iterable<string>[]): Generator<string> {
  const iterators = sources.map((source) => source[Symbol.iterator]());
  // A max-heap of each iterator's current id.
  const heap: { id: string; at: number }[] = [];
  const push = (entry: { id: string; at: number }) => {
    heap.push(entry);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.id >= heap[i]!.id) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let largest = i;
        if (left < heap.length && heap[left]!.id > heap[largest]!.id) largest = left;
        if (right < heap.length && heap[right]!.id > heap[largest]!.id) largest = right;
        if (largest === i) break;
        [heap[largest], heap[i]] = [heap[i]!, heap[largest]!];
        i = largest;
      }
    }
    return top;
  };
  const advance = (at: number) => {
    const next = iterators[at]!.next();
    if (!next.done) push({ id: next.value, at });
  };
  try {
    iterators.forEach((_, at) => advance(at));
    let last: string | null = null;
    while (heap.length) {
      const { id, at } = pop();
      advance(at);
      if (id === last) continue;
      last = id;
      yield id;
    }
  } finally {
    for (const iterator of iterators) iterator.return?.();
  }
}

function searchStatuses(store: Store, limits: Limits, q: string, query: StatusQuery): string[] {
  const want = Math.min(query.offset + query.limit, limits.depth);
  if (query.limit <= 0 || query.offset >= want) return [];
  const { whole, prefix } = queryWords(q, STATUS_MIN_LENGTH);
  if (prefix === null) return [];
  if (query.accountId) whole.push(authorWord(query.accountId));

  // The whole words, rarest first; a word no status has ends the search.
  const wholes = whole.map((word) => ({ word, count: countStatusPostings(store, word) })).sort((a, b) => a.count - b.count);
  if (wholes.some((entry) => entry.count === 0)) return [];
  // The words the prefix stands for: the most used of those it starts.
  const expansion = statusWordsStartingWith(store, prefix, limits.prefixScan)
    .map((word) => ({ word, count: countStatusPostings(store, word) }))
    .sort((a, b) => b.count - a.count)
    .slice(0, limits.prefixWords);
  if (expansion.length === 0) return [];
  const prefixCount = expansion.reduce((sum, entry) => sum + entry.count, 0);

  const prefixDrives = wholes.length === 0 || prefixCount < wholes[0]!.count;
  const driverCount = prefixDrives ? prefixCount : wholes[0]!.count;
  const prefixRows = () => mergeNewestFirst(expansion.map((entry) => statusPostings(store, entry.word, query.maxId)));
  const candidates = prefixDrives ? prefixRows() : statusPostings(store, wholes[0]!.word, query.maxId);

  // How each other part of the query is checked. Candidates come newest first, so a part about as common as
  // the driver is checked by walking down its own rows alongside them (a row read costs about a quarter of a
  // point lookup); a much commoner one by a lookup per candidate, which skips the rows in between: a point
  // lookup in a whole word's rows, or one read of the candidate's indexed words for the prefix.
  // Rows read in all (candidates and rows walked): at most `statusRows` per part of the query read so.
  const walks: Iterator<string>[] = [];
  let rows = 0;
  const walkAlong = (source: Iterable<string>): Check => {
    const walk = source[Symbol.iterator]();
    walks.push(walk);
    let row = walk.next();
    return (id) => {
      while (!row.done && row.value > id) {
        row = walk.next();
        rows++;
      }
      return !row.done && row.value === id;
    };
  };
  const walkable = (count: number) => count <= WALK_RATIO * driverCount;
  const checks: Check[] = (prefixDrives ? wholes : wholes.slice(1)).map(({ word, count }) =>
    walkable(count) ? walkAlong(statusPostings(store, word, query.maxId)) : (id) => statusHasWord(store, word, id));
  if (!prefixDrives) {
    const stands = new Set(expansion.map((entry) => entry.word));
    checks.push(walkable(prefixCount) ? walkAlong(prefixRows()) : (id) => !!indexedStatusWords(store, id)?.some((word) => stands.has(word)));
  }

  const budget = limits.statusRows * (1 + walks.length);
  const out: string[] = [];
  let matched = 0;
  try {
    for (const id of candidates) {
      if (query.maxId && id >= query.maxId) continue;
      if (query.minId && id <= query.minId) break;
      if (++rows > budget) break;
      if (!checks.every((check) => check(id)) || rows > budget) continue;
      if (matched++ >= query.offset) out.push(id);
      if (matched >= want) break;
    }
  } finally {
    // Leaving the loop early returns its iterator; the walks' cursors are closed here.
    for (const walk of walks) walk.return?.();
  }
  return out;
}

type Check = (id: string) => boolean;

/** A part of the query is walked alongside the candidates when it has at most this many times as many rows. */
const WALK_RATIO = 3;

// Accounts

function searchAccounts(store: Store, limits: Limits, q: string, query: AccountQuery): string[] {
  const want = Math.min(query.offset + query.limit, limits.depth);
  if (query.limit <= 0 || query.offset >= want) return [];
  const raw = q.trim().replace(/^@+/, "");
  if (!raw) return [];
  const { among } = query;
  const found: string[] = [];
  const seen = new Set<string>();

  for (const id of accountIdsByAcct(store, raw.toLowerCase())) {
    if (among && !among.has(id)) continue;
    found.push(id);
    seen.add(id);
  }

  const { whole, prefix } = queryWords(raw, NAME_MIN_LENGTH);
  const words = prefix === null ? whole : [...whole, prefix];
  if (words.length > 0 && found.length < want) {
    const keyOf = (word: string) => [...word].slice(0, ACCOUNT_PREFIX_LENGTH).join("");
    const counted = words.map((word) => ({ word, count: countAccountPostings(store, keyOf(word)) })).sort((a, b) => a.count - b.count);
    const driver = counted[0]!;
    // Whether a candidate has every query word (the driver's too, when it is longer than the rows' prefixes).
    const matches = (entry: IndexedAccount | undefined) =>
      !!entry && entry.discoverable && words.every((word) => entry.words.some((own) => own.startsWith(word)));
    const needsCheck = words.length > 1 || keyOf(driver.word) !== driver.word;

    if (driver.count > 0 && among && among.size < driver.count) {
      // Few candidates to begin with (the viewer's follows): check each, then rank them.
      const ranked: ({ id: string } & IndexedAccount)[] = [];
      let examined = 0;
      for (const id of among) {
        if (++examined > limits.accountRows) break;
        if (seen.has(id)) continue;
        const entry = indexedAccount(store, id);
        if (matches(entry)) ranked.push({ id, ...entry! });
      }
      ranked.sort(compareAccountRanks);
      for (const entry of ranked) found.push(entry.id);
    } else if (driver.count > 0) {
      let examined = 0;
      for (const id of accountPostings(store, keyOf(driver.word))) {
        if (++examined > limits.accountRows || found.length >= want) break;
        if (seen.has(id) || (among && !among.has(id))) continue;
        if (needsCheck && !matches(indexedAccount(store, id))) continue;
        found.push(id);
      }
    }
  }
  return found.slice(query.offset, want);
}

// Tags

function searchTags(store: Store, limits: Limits, q: string, query: Page): string[] {
  const want = Math.min(query.offset + query.limit, limits.depth);
  if (query.limit <= 0 || query.offset >= want) return [];
  const typed = q.trim().replace(/^#+/, "").toLowerCase();
  const name = fold(typed);
  if (!name || /\s/.test(name)) return [];
  const closeness = (tag: { name: string; folded: string }) => (tag.name === typed ? 0 : tag.folded === name ? 1 : 2);
  return tagsStartingWith(store, name, limits.tagRows)
    .sort((a, b) => closeness(a) - closeness(b) || b.uses - a.uses || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(query.offset, want)
    .map((tag) => tag.name);
}
