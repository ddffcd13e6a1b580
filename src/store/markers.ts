// Read markers: where a user stopped reading their home timeline and notifications (synchronised between
// their devices). One record per user and timeline.
import type { Store } from "./handle.ts";
import type { MarkerRecord, MarkerTimeline } from "../model/notifications.ts";

export function getMarker(store: Store, accountId: string, timeline: MarkerTimeline): MarkerRecord | undefined {
  return store.db.markers.get([accountId, timeline]);
}

/** Inside a write. */
export function putMarker(store: Store, accountId: string, timeline: MarkerTimeline, marker: MarkerRecord): void {
  store.db.markers.put([accountId, timeline], marker);
}
