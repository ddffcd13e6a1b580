// Read markers (GET/POST /api/v1/markers): the last status / notification a user has read, per timeline,
// so that their clients agree on where to resume. `version` starts at 0 and grows with every change; saving
// the same position again changes nothing. Writes are serialised, so no update is ever lost (no 409).
import type { Deps } from "../deps.ts";
import { Unprocessable } from "../lib/errors.ts";
import { normaliseId, publicId } from "../lib/ids.ts";
import type { Store } from "../store/db.ts";
import { getMarker, putMarker } from "../store/markers.ts";
import type { MarkerRecord, MarkerTimeline } from "../model/notifications.ts";

export const MARKER_TIMELINES: readonly MarkerTimeline[] = ["home", "notifications"];

export type Markers = Partial<Record<MarkerTimeline, MarkerRecord>>;

export function isMarkerTimeline(name: string): name is MarkerTimeline {
  return (MARKER_TIMELINES as readonly string[]).includes(name);
}

/** The markers asked for that exist; unknown timeline names are ignored. */
export function readMarkers(store: Store, accountId: string, timelines: readonly string[]): Markers {
  const out: Markers = {};
  for (const name of timelines) {
    if (!isMarkerTimeline(name)) continue;
    const marker = getMarker(store, accountId, name);
    if (marker) out[name] = marker;
  }
  return out;
}

/** Saves the positions given (`home`, `notifications`); returns the saved markers. */
export async function saveMarkers(deps: Deps, accountId: string, positions: Partial<Record<MarkerTimeline, string | undefined>>): Promise<Markers> {
  const wanted: [MarkerTimeline, string][] = [];
  for (const name of MARKER_TIMELINES) {
    if (!(name in positions)) continue;
    const id = normaliseId(positions[name] ?? "");
    if (!id) throw new Unprocessable("Validation failed: Last read can't be blank");
    wanted.push([name, publicId(id)]);
  }
  const { store } = deps;
  return store.write(() => {
    const out: Markers = {};
    const now = Date.now();
    for (const [name, lastReadId] of wanted) {
      const current = getMarker(store, accountId, name);
      if (current?.lastReadId === lastReadId) {
        out[name] = current;
        continue;
      }
      const marker: MarkerRecord = { v: 1, lastReadId, version: current ? current.version + 1 : 0, updatedAt: now };
      putMarker(store, accountId, name, marker);
      out[name] = marker;
    }
    return out;
  });
}
