// Read markers: where a user stopped reading their home timeline and notifications (synchronised between
// their devices). One record per user and timeline.
import type { Store } from "./db.ts";

export type MarkerTimeline = "home" | "notifications";

export interface MarkerRecord {
  v: 1;
  lastReadId: string;
  /** optimistic-lock counter: starts at 0, one more with every change */
  version: number;
  updatedAt: number;
}

export function getMarker(store: Store, accountId: string, timeline: MarkerTimeline): MarkerRecord | undefined {
  return store.db.markers.get([accountId, timeline]);
}

/** Inside a write. */
export function putMarker(store: Store, accountId: string, timeline: MarkerTimeline, marker: MarkerRecord): void {
  store.db.markers.put([accountId, timeline], marker);
}
