// Mastodon cursor paging: the query a page is read with and its row budget.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

export interface PageQuery {
  limit: number;
  /** strictly older than */
  maxId?: string | null;
  /** strictly newer than; returns the newest page above it */
  sinceId?: string | null;
  /** strictly newer than; returns the page immediately above it (forward paging) */
  minId?: string | null;
  /** Bounds a filtered read: rows examined, whether kept or not. Absent on internal reads, which see everything. */
  budget?: RowBudget;
  /** Told of every row a timeline read examines, in scan order, and whether its rules showed it (http/cache/page-windows.ts). */
  examined?: (statusId: string, shown: boolean) => void;
}

/**
 * Rows one filtered page read may examine. A filter that rejects most rows (only_media, a feed full of muted
 * authors, notification types) would otherwise read the whole keyspace for one short page; with the budget
 * spent, the read returns what it found and remembers where it stopped, and the Link header continues from
 * there (a short or even empty page with a `next` link, as Mastodon clients page on).
 */
export const SCAN_ROW_BUDGET = 1000;

/** One request's scan budget, and where the scan stopped when it ran out before the page filled. */
export class RowBudget {
  examined = 0;
  /** id of the last row examined, set only when rows remained unexamined */
  stoppedAt: string | null = null;
  /** direction of the scan that stopped: "older" (max_id, since_id, no cursor) or "newer" (min_id) */
  stoppedGoing: "older" | "newer" = "older";

  constructor(readonly rows: number = SCAN_ROW_BUDGET) {}

  /** Counts one more row; false once the budget is spent. */
  take(): boolean {
    if (this.examined >= this.rows) return false;
    this.examined++;
    return true;
  }

  stop(lastId: string, going: "older" | "newer"): void {
    this.stoppedAt = lastId;
    this.stoppedGoing = going;
  }
}
