// The search engine on a Meilisearch server (WARREN_MEILISEARCH_URL, optional WARREN_MEILISEARCH_KEY), through
// the official `meilisearch` client, for an instance that has outgrown the embedded index. Three indexes
// (`warren_accounts`, `warren_statuses`, `warren_tags`); their settings are applied by start(), before any
// document is written. Every write waits for its task, so a search after a write sees it, as with the
// embedded engine, and a failed task is an error (the indexing job is retried).
//
// The same answers as embedded.ts (tests/search/contract.ts runs against both), by these means:
// - statuses: every word must match (`matchingStrategy: "all"`, no typo tolerance), the last as a prefix
//   (Meilisearch's own rule); newest first by sorting on the id, kept as two numbers (meilisearch-documents.ts),
//   which max_id/min_id filter on too.
// - accounts: the exact acct through a filter, then the words sorted by followers and last status, among
//   discoverable accounts only.
// - tags: the exact name through a filter, then prefixes sorted by uses. Tag names are not valid document
//   ids (any letter), so a tag's id is the SHA-256 of its name.
import { Meilisearch, MeilisearchApiError, type EnqueuedTaskPromise, type Index } from "meilisearch";
import type { AccountQuery, Page, SearchEngine, StatusQuery } from "./engine.ts";
import {
  accountDocument,
  ACCOUNT_SETTINGS,
  idFilter,
  quoted,
  STATUS_SETTINGS,
  statusDocument,
  TAG_SETTINGS,
  tagDocument,
  type MeiliAccount,
  type MeiliStatus,
  type MeiliTag,
} from "./meilisearch-documents.ts";
import { NAME_MIN_LENGTH, queryWords } from "./tokenize.ts";

export interface MeilisearchOptions {
  url: string;
  key: string | null;
  /** Index names start with this (tests use their own); `warren_` by default. */
  indexPrefix?: string;
}

/** How long a write or a settings change may take to be applied before it counts as failed. */
const TASK_TIMEOUT_MS = 120_000;
/** Ids per `IN [...]` filter of `among` at most (a viewer's follows); more are searched without it and filtered after. */
const AMONG_FILTER_IDS = 10_000;
/** Meilisearch's own cap on offset + limit (its `pagination.maxTotalHits` default). */
const DEPTH = 1_000;

/** Does the query have a word at all? (Meilisearch answers an empty query with every document.) */
const hasWords = (q: string) => queryWords(q, NAME_MIN_LENGTH).prefix !== null;

/** How deep a page reaches (offset + limit, capped at DEPTH); null when it asks for nothing. */
function depthOf(query: Page): number | null {
  const want = Math.min(query.offset + query.limit, DEPTH);
  return query.limit <= 0 || query.offset >= want ? null : want;
}

async function settle(task: EnqueuedTaskPromise, what: string): Promise<void> {
  const done = await task.waitTask({ timeout: TASK_TIMEOUT_MS });
  if (done.status !== "succeeded") {
    throw new Error(`Meilisearch: ${what} ${done.status}${done.error ? `: ${done.error.code}: ${done.error.message}` : ""}`);
  }
}

/** One field of the hits (ids, or tag names) of a search. */
async function hits(index: Index<any>, q: string, params: Record<string, unknown>, field: "id" | "name" = "id"): Promise<string[]> {
  try {
    const response = await index.search<Record<string, string>>(q, { ...params, attributesToRetrieve: [field] });
    return response.hits.map((hit) => hit[field]!);
  } catch (error) {
    // Nothing indexed yet (start() not run against this server): nothing found.
    if (error instanceof MeilisearchApiError && error.cause?.code === "index_not_found") return [];
    throw error;
  }
}

interface Indexes {
  client: Meilisearch;
  accounts: Index<MeiliAccount>;
  statuses: Index<MeiliStatus>;
  tags: Index<MeiliTag>;
}

const settingsOf = ({ accounts, statuses, tags }: Indexes) => [
  { index: accounts, settings: ACCOUNT_SETTINGS },
  { index: statuses, settings: STATUS_SETTINGS },
  { index: tags, settings: TAG_SETTINGS },
];

async function createIndex(client: Meilisearch, uid: string): Promise<void> {
  const done = await client.createIndex(uid, { primaryKey: "id" }).waitTask({ timeout: TASK_TIMEOUT_MS });
  if (done.status === "succeeded" || done.error?.code === "index_already_exists") return;
  throw new Error(`Meilisearch: creating index ${uid} ${done.status}${done.error ? `: ${done.error.message}` : ""}`);
}

async function start(indexes: Indexes): Promise<void> {
  // Settings first: documents added before them would be indexed twice.
  for (const { index, settings } of settingsOf(indexes)) {
    await createIndex(indexes.client, index.uid);
    await settle(index.updateSettings(settings), `settings of ${index.uid}`);
  }
}

async function clear(indexes: Indexes): Promise<void> {
  for (const { index } of settingsOf(indexes)) {
    try {
      await settle(index.deleteAllDocuments(), `clearing ${index.uid}`);
    } catch (error) {
      if (!(error instanceof Error && error.message.includes("index_not_found"))) throw error;
    }
  }
}

async function searchAccounts(accounts: Index<MeiliAccount>, q: string, query: AccountQuery): Promise<string[]> {
  const want = depthOf(query);
  if (want === null) return [];
  const raw = q.trim().replace(/^@+/, "");
  if (!raw) return [];
  const among = query.among ? [...query.among] : null;
  if (among && among.length === 0) return [];
  const amongFilter = among && among.length <= AMONG_FILTER_IDS ? [`id IN [${among.map(quoted).join(", ")}]`] : [];
  const inAmong = (id: string) => !query.among || query.among.has(id);

  const exact = (await hits(accounts, "", { filter: [`acct = ${quoted(raw.toLowerCase())}`, ...amongFilter], limit: 1 })).filter(inAmong);
  const found = [...exact];
  if (hasWords(raw) && found.length < want) {
    const matches = await hits(accounts, raw, {
      filter: ["discoverable = true", ...amongFilter],
      sort: ["followersCount:desc", "lastStatusAt:desc"],
      matchingStrategy: "all",
      limit: want,
    });
    for (const id of matches) if (!exact.includes(id) && inAmong(id)) found.push(id);
  }
  return found.slice(query.offset, want);
}

async function searchTags(tags: Index<MeiliTag>, q: string, query: Page): Promise<string[]> {
  const want = depthOf(query);
  if (want === null) return [];
  const name = q.trim().replace(/^#+/, "").toLowerCase();
  if (!name || /\s/.test(name)) return [];
  const exact = await hits(tags, "", { filter: [`name = ${quoted(name)}`], limit: 1 }, "name");
  const found = [...exact];
  if (hasWords(name)) {
    const matches = await hits(tags, name, { sort: ["uses:desc"], matchingStrategy: "all", limit: want }, "name");
    for (const tag of matches) if (!exact.includes(tag)) found.push(tag);
  }
  return found.slice(query.offset, want);
}

async function searchStatuses(statuses: Index<MeiliStatus>, q: string, query: StatusQuery): Promise<string[]> {
  const want = depthOf(query);
  if (want === null || !hasWords(q)) return [];
  const filter: string[] = [];
  if (query.accountId) filter.push(`accountId = ${quoted(query.accountId)}`);
  if (query.maxId) filter.push(idFilter(query.maxId, true));
  if (query.minId) filter.push(idFilter(query.minId, false));
  return hits(statuses, q, {
    filter,
    sort: ["idMs:desc", "idLow:desc"],
    matchingStrategy: "all",
    offset: query.offset,
    limit: want - query.offset,
  });
}

export function createMeilisearchEngine(options: MeilisearchOptions): SearchEngine {
  const client = new Meilisearch({ host: options.url, apiKey: options.key ?? undefined });
  const prefix = options.indexPrefix ?? "warren_";
  const indexes: Indexes = {
    client,
    accounts: client.index(`${prefix}accounts`),
    statuses: client.index(`${prefix}statuses`),
    tags: client.index(`${prefix}tags`),
  };
  const { accounts, statuses, tags } = indexes;
  return {
    name: "meilisearch",
    start: () => start(indexes),
    async indexAccounts(documents) {
      if (documents.length) await settle(accounts.addDocuments(documents.map(accountDocument)), "indexing accounts");
    },
    async indexStatuses(documents) {
      if (documents.length) await settle(statuses.addDocuments(documents.map(statusDocument)), "indexing statuses");
    },
    async indexTags(documents) {
      if (documents.length) await settle(tags.addDocuments(documents.map(tagDocument)), "indexing tags");
    },
    async removeAccounts(removed) {
      if (removed.length) await settle(accounts.deleteDocuments([...removed]), "removing accounts");
    },
    async removeStatuses(removed) {
      if (removed.length) await settle(statuses.deleteDocuments([...removed]), "removing statuses");
    },
    searchAccounts: (q, query) => searchAccounts(accounts, q, query),
    searchTags: (q, query) => searchTags(tags, q, query),
    searchStatuses: (q, query) => searchStatuses(statuses, q, query),
    clear: () => clear(indexes),
  };
}
