// Marker entity and the markers map of GET/POST /api/v1/markers: {home?: Marker, notifications?: Marker}.
import { t, type Static } from "elysia";
import type { Markers } from "../domain/markers.ts";
import { Int } from "./integer.ts";
import type { MarkerRecord } from "../model/notifications.ts";

const MarkerSchema = t.Object(
  {
    last_read_id: t.String({ description: "Id of the last status / notification read" }),
    version: Int({ description: "Grows by one with every change (optimistic locking)" }),
    updated_at: t.String(),
  },
  { description: "Mastodon Marker" },
);

export const MarkersSchema = t.Object(
  { home: t.Optional(MarkerSchema), notifications: t.Optional(MarkerSchema) },
  { description: "The markers asked for that exist, by timeline" },
);

type Marker = Static<typeof MarkerSchema>;

function presentMarker(marker: MarkerRecord): Marker {
  return { last_read_id: marker.lastReadId, version: marker.version, updated_at: new Date(marker.updatedAt).toISOString() };
}

export function presentMarkers(markers: Markers): Static<typeof MarkersSchema> {
  const out: Static<typeof MarkersSchema> = {};
  if (markers.home) out.home = presentMarker(markers.home);
  if (markers.notifications) out.notifications = presentMarker(markers.notifications);
  return out;
}
