// The search engine on a Meilisearch server (WARREN_MEILISEARCH_URL, optional WARREN_MEILISEARCH_KEY), through
// the official `meilisearch` client, for an instance that has outgrown the embedded index. Three indexes
// (`warren_accounts`, `warren_statuses`, `warren_tags`); their settings are applied by start(), before any
// document is written. Every write waits for its task, so a search after a write sees it, as with the
// embedded engine, and a failed task is an error (the indexing job is retried).
//
// The same answers as embedded.ts (tests/search/contract.ts runs against both), by these means:
// - statuses: every word must match (`matchingStrategy: "all"`, no typo tolerance), the last as a prefix
//   (Meilisearch's own rule); newest first by sorting on the id, kept as two numbers (its millisecond and its
//   low 16 bits: an 18-digit id does not fit a JSON number exactly), which max_id/min_id filter on too.
// - accounts: the exact acct through a filter, then the words sorted by followers and last status, among
//   discoverable accounts only.
// - tags: the exact name through a filter, then prefixes sorted by uses. Tag names are not valid document
//   ids (any letter), so a tag's id is the SHA-256 of its name.
import { createHash } from "node:crypto";
import { Meilisearch, MeilisearchApiError, type EnqueuedTaskPromise, type Index, type Settings } from "meilisearch";
import type { AccountDocument, AccountQuery, Page, SearchEngine, StatusDocument, StatusQuery, TagDocument } from "./engine.ts";
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

interface MeiliAccount {
  id: string;
  acct: string;
  username: string;
  domain: string;
  displayName: string;
  followersCount: number;
  lastStatusAt: number;
  discoverable: boolean;
}

interface MeiliStatus {
  id: string;
  accountId: string;
  text: string;
  visibility: StatusDocument["visibility"];
  createdAt: number;
  /** the id's millisecond and low 16 bits: sortable and comparable as JSON numbers */
  idMs: number;
  idLow: number;
}

interface MeiliTag {
  id: string;
  name: string;
  uses: number;
}

const NO_TYPOS = { enabled: false };

const ACCOUNT_SETTINGS: Settings = {
  searchableAttributes: ["username", "displayName", "domain"],
  filterableAttributes: ["id", "acct", "discoverable"],
  sortableAttributes: ["followersCount", "lastStatusAt"],
  // "sort" before "attribute": a match in a display name ranks with one in a username, by followers.
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

const STATUS_SETTINGS: Settings = {
  searchableAttributes: ["text"],
  filterableAttributes: ["accountId", "visibility", "createdAt", "idMs", "idLow"],
  sortableAttributes: ["idMs", "idLow", "createdAt"],
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

const TAG_SETTINGS: Settings = {
  searchableAttributes: ["name"],
  filterableAttributes: ["name"],
  sortableAttributes: ["uses"],
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

/** A string in a filter expression: double quotes, with quotes and backslashes escaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

function idParts(id: string): { ms: number; low: number } {
  const value = BigInt(id);
  return { ms: Number(value >> 16n), low: Number(value & 0xffffn) };
}

/** `id < bound` (below) or `id > bound`, as a filter on the two numbers an id is kept as. */
function idFilter(bound: string, below: boolean): string {
  const { ms, low } = idParts(bound);
  const op = below ? "<" : ">";
  return `(idMs ${op} ${ms} OR (idMs = ${ms} AND idLow ${op} ${low}))`;
}

const tagId = (name: string) => createHash("sha256").update(name).digest("hex");

/** Does the query have a word at all? (Meilisearch answers an empty query with every document.) */
const hasWords = (q: string) => queryWords(q, NAME_MIN_LENGTH).prefix !== null;

async function settle(task: EnqueuedTaskPromise, what: string): Promise<void> {
  const done = await task.waitTask({ timeout: TASK_TIMEOUT_MS });
  if (done.status !== "succeeded") {
    throw new Error(`Meilisearch: ${what} ${done.status}${done.error ? `: ${done.error.code}: ${done.error.message}` : ""}`);
  }
}

export function createMeilisearchEngine(options: MeilisearchOptions): SearchEngine {
  const client = new Meilisearch({ host: options.url, apiKey: options.key ?? undefined });
  const prefix = options.indexPrefix ?? "warren_";
  const accounts: Index<MeiliAccount> = client.index(`${prefix}accounts`);
  const statuses: Index<MeiliStatus> = client.index(`${prefix}statuses`);
  const tags: Index<MeiliTag> = client.index(`${prefix}tags`);
  const all = [
    { index: accounts, settings: ACCOUNT_SETTINGS },
    { index: statuses, settings: STATUS_SETTINGS },
    { index: tags, settings: TAG_SETTINGS },
  ];

  async function createIndex(uid: string): Promise<void> {
    const done = await client.createIndex(uid, { primaryKey: "id" }).waitTask({ timeout: TASK_TIMEOUT_MS });
    if (done.status === "succeeded" || done.error?.code === "index_already_exists") return;
    throw new Error(`Meilisearch: creating index ${uid} ${done.status}${done.error ? `: ${done.error.message}` : ""}`);
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

  return {
    name: "meilisearch",

    async start() {
      // Settings first: documents added before them would be indexed twice.
      for (const { index, settings } of all) {
        await createIndex(index.uid);
        await settle(index.updateSettings(settings), `settings of ${index.uid}`);
      }
    },

    async indexAccounts(documents: readonly AccountDocument[]) {
      if (!documents.length) return;
      const docs: MeiliAccount[] = documents.map((document) => ({
        id: document.id,
        acct: (document.domain ? `${document.username}@${document.domain}` : document.username).toLowerCase(),
        username: document.username,
        domain: document.domain ?? "",
        displayName: document.displayName,
        followersCount: document.followersCount,
        lastStatusAt: document.lastStatusAt ?? 0,
        discoverable: document.discoverable,
      }));
      await settle(accounts.addDocuments(docs), "indexing accounts");
    },

    async indexStatuses(documents: readonly StatusDocument[]) {
      if (!documents.length) return;
      const docs: MeiliStatus[] = documents.map((document) => {
        const { ms, low } = idParts(document.id);
        return { id: document.id, accountId: document.accountId, text: document.text, visibility: document.visibility, createdAt: document.createdAt, idMs: ms, idLow: low };
      });
      await settle(statuses.addDocuments(docs), "indexing statuses");
    },

    async indexTags(documents: readonly TagDocument[]) {
      if (!documents.length) return;
      await settle(tags.addDocuments(documents.map((tag) => ({ id: tagId(tag.name), name: tag.name, uses: tag.uses }))), "indexing tags");
    },

    async removeAccounts(removed: readonly string[]) {
      if (removed.length) await settle(accounts.deleteDocuments([...removed]), "removing accounts");
    },

    async removeStatuses(removed: readonly string[]) {
      if (removed.length) await settle(statuses.deleteDocuments([...removed]), "removing statuses");
    },

    async searchAccounts(q: string, query: AccountQuery) {
      const want = Math.min(query.offset + query.limit, DEPTH);
      if (query.limit <= 0 || query.offset >= want) return [];
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
    },

    async searchTags(q: string, query: Page) {
      const want = Math.min(query.offset + query.limit, DEPTH);
      if (query.limit <= 0 || query.offset >= want) return [];
      const name = q.trim().replace(/^#+/, "").toLowerCase();
      if (!name || /\s/.test(name)) return [];
      const exact = await hits(tags, "", { filter: [`name = ${quoted(name)}`], limit: 1 }, "name");
      const found = [...exact];
      if (hasWords(name)) {
        const matches = await hits(tags, name, { sort: ["uses:desc"], matchingStrategy: "all", limit: want }, "name");
        for (const tag of matches) if (!exact.includes(tag)) found.push(tag);
      }
      return found.slice(query.offset, want);
    },

    async searchStatuses(q: string, query: StatusQuery) {
      const want = Math.min(query.offset + query.limit, DEPTH);
      if (query.limit <= 0 || query.offset >= want || !hasWords(q)) return [];
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
    },

    async clear() {
      for (const { index } of all) {
        try {
          await settle(index.deleteAllDocuments(), `clearing ${index.uid}`);
        } catch (error) {
          if (!(error instanceof Error && error.message.includes("index_not_found"))) throw error;
        }
      }
    },
  };
}
