// Filters (v2) and their keywords and statuses.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

export type FilterContext = "home" | "notifications" | "public" | "thread" | "account";

export type FilterAction = "warn" | "hide" | "blur";

export interface FilterKeywordRecord {
  id: string;
  keyword: string;
  wholeWord: boolean;
}

export interface FilterStatusRecord {
  id: string;
  statusId: string;
}

export interface FilterRecord {
  v: 1;
  id: string;
  accountId: string;
  title: string;
  context: FilterContext[];
  action: FilterAction;
  /** ms since the epoch; null: never. An expired filter stays (and is listed) but no longer applies. */
  expiresAt: number | null;
  /** oldest first */
  keywords: FilterKeywordRecord[];
  /** oldest first */
  statuses: FilterStatusRecord[];
  createdAt: number;
  updatedAt: number;
}

export type FilterItemKind = "keyword" | "status";

export interface FilterItemRef {
  kind: FilterItemKind;
  accountId: string;
  filterId: string;
}
