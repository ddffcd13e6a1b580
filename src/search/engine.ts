// The search engine behind GET /api/v2/search: what it indexes and what it answers. Two implementations
// (embedded.ts: an inverted index in our LMDB environment, the default; meilisearch.ts: a Meilisearch server
// when WARREN_MEILISEARCH_URL is set) pass the same contract tests (tests/search/). An engine only finds
// candidates: who may see what is decided again by the domain after retrieval (domain/search/), so an index
// that lags behind a deletion, a block or a visibility rule never shows anything it should not.

/** An account as indexed: local and remote ones alike. */
export interface AccountDocument {
  id: string;
  /** as typed in mentions: lower-case username */
  username: string;
  /** null for local accounts */
  domain: string | null;
  displayName: string;
  /** plain-text bio (not searched by default, used by ranking ties) */
  note: string;
  followersCount: number;
  /** ms; null when the account never posted */
  lastStatusAt: number | null;
  /** opted into discovery (Mastodon's `discoverable`); undiscoverable accounts are found only by exact acct */
  discoverable: boolean;
}

/** A status as indexed (never a reblog wrapper): its words are the text, the content warning and the media descriptions. */
export interface StatusDocument {
  id: string;
  accountId: string;
  /** plain text to search (HTML already stripped) */
  text: string;
  visibility: "public" | "unlisted" | "private" | "direct";
  createdAt: number;
}

/** A hashtag as indexed (lower-case name, without `#`). */
export interface TagDocument {
  name: string;
  /** statuses that used it (for ranking among equally good matches) */
  uses: number;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface StatusQuery extends Page {
  /** only statuses of this author (`account_id`) */
  accountId?: string;
  /** only statuses with an id below / above (`max_id` / `min_id`) */
  maxId?: string;
  minId?: string;
}

export interface AccountQuery extends Page {
  /** only these accounts (`following=true`: the viewer's follows); undefined means everyone */
  among?: ReadonlySet<string>;
}

export interface SearchEngine {
  readonly name: "embedded" | "meilisearch";
  /** Creates indexes and applies their settings; awaited once before first use. */
  start(): Promise<void>;
  /** Adds or replaces documents (by id / name). */
  indexAccounts(documents: readonly AccountDocument[]): Promise<void>;
  indexStatuses(documents: readonly StatusDocument[]): Promise<void>;
  indexTags(documents: readonly TagDocument[]): Promise<void>;
  removeAccounts(ids: readonly string[]): Promise<void>;
  removeStatuses(ids: readonly string[]): Promise<void>;
  /**
   * Account ids, best first: exact acct (`user` for local, `user@domain`), then acct/username/display-name
   * word prefixes, ties by followers then recent activity. A leading `@` in `q` is ignored.
   */
  searchAccounts(q: string, query: AccountQuery): Promise<string[]>;
  /** Tag names, best first: exact name, then prefix, ties by uses. A leading `#` in `q` is ignored. */
  searchTags(q: string, query: Page): Promise<string[]>;
  /** Status ids whose text has every word of `q` (the last one as a prefix), newest first. */
  searchStatuses(q: string, query: StatusQuery): Promise<string[]>;
  /** Empties every index (`warren search deploy` rebuilds from the records). */
  clear(): Promise<void>;
}
