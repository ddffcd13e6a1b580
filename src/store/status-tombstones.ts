// Tombstones of deleted remote statuses (docs/federation.md, "Deletes"): the ActivityPub id of a status its
// author deleted, and when, kept for TOMBSTONE_TTL_MS in the federation keyspace (store/federation-kv.ts, whose
// entries expire and are swept). While one stands, a Create of that id (late, replayed, or arriving after its
// Delete) stores nothing.
import type { Store } from "./handle.ts";
import { getFederationKv, putFederationKv } from "./federation-kv.ts";

/** How long a tombstone is kept: longer than any retry schedule of a sending server (Mastodon's ends after ~a week). */
export const TOMBSTONE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const key = (uri: string) => ["warren", "status_tombstone", uri] as const;

/** Inside a write: `uri` was deleted at `deletedAt`. */
export function putStatusTombstone(store: Store, uri: string, deletedAt: number): void {
  putFederationKv(store, key(uri), JSON.stringify({ deletedAt }), deletedAt + TOMBSTONE_TTL_MS, deletedAt);
}

/** When `uri` was deleted, if its tombstone stands. */
export function statusTombstone(store: Store, uri: string, now = Date.now()): number | null {
  const entry = getFederationKv(store, key(uri), now);
  return entry ? (JSON.parse(entry.json) as { deletedAt: number }).deletedAt : null;
}
