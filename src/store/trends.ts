// Trends (keyspace `trends`; docs/trends.md): what the `trends.refresh` job computed last, the staff's reviews
// and the refresh chain's bookkeeping. Families told apart by the key's first element:
//   ["list", kind]          → TrendList (the ranked candidates of "tags", "statuses" or "links")
//   ["review", kind, key]   → "approved" | "rejected" (tag name, status id or link id)
//   ["publisher", domain]   → PublisherReview (a link's site: its links trend once it is approved)
//   ["auto_approve"]        → true: candidates are listed without review
//   ["next"]                → runAt (ms) of the refresh job that keeps the chain going
import type { Store } from "./handle.ts";
import type { Review, TrendKind, TrendLists } from "../model/instance.ts";
import type { PublisherReview } from "../model/instance.ts";

const db = (store: Store) => store.db.trends;

export function getTrendList<K extends TrendKind>(store: Store, kind: K): TrendLists[K] {
  return (db(store).get(["list", kind]) as TrendLists[K] | undefined) ?? { computedAt: 0, items: [] };
}

/** Inside a write. */
export function putTrendList<K extends TrendKind>(store: Store, kind: K, list: TrendLists[K]): void {
  db(store).put(["list", kind], list);
}

export function getReview(store: Store, kind: TrendKind, key: string): Review | undefined {
  return db(store).get(["review", kind, key]);
}

/** Inside a write. */
export function putReview(store: Store, kind: TrendKind, key: string, review: Review): void {
  db(store).put(["review", kind, key], review);
}

export function autoApprove(store: Store): boolean {
  return db(store).get(["auto_approve"]) === true;
}

/** Inside a write. */
export function setAutoApprove(store: Store, on: boolean): void {
  if (on) db(store).put(["auto_approve"], true);
  else db(store).remove(["auto_approve"]);
}

export function nextRefreshAt(store: Store): number | undefined {
  return db(store).get(["next"]);
}

/** Inside a write. */
export function putNextRefreshAt(store: Store, runAt: number): void {
  db(store).put(["next"], runAt);
}

export function getPublisherReview(store: Store, domain: string): PublisherReview | undefined {
  return db(store).get(["publisher", domain]);
}

/** Inside a write. */
export function putPublisherReview(store: Store, domain: string, review: PublisherReview): void {
  db(store).put(["publisher", domain], review);
}
