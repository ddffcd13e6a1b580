// GET /api/v1/markers?timeline[]=home&timeline[]=notifications and POST /api/v1/markers with
// home[last_read_id] / notifications[last_read_id]: both answer {home?, notifications?}.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { readMarkers, saveMarkers } from "../../../domain/markers.ts";
import { MarkersSchema, presentMarkers } from "../../../entities/marker.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { ErrorBody } from "../../schemas.ts";

const Position = t.Optional(
  t.Object({ last_read_id: t.Optional(t.String({ description: "Id of the last status / notification read" })) }),
);

const errors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

export const markerRoutes = (deps: Deps) =>
  new Elysia({ name: "marker-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/markers",
      ({ viewer, query }) => {
        const timelines = query.timeline === undefined ? [] : Array.isArray(query.timeline) ? query.timeline : [query.timeline];
        return presentMarkers(readMarkers(deps.store, viewer.account.id, timelines));
      },
      {
        auth: ["read:statuses"],
        query: t.Object({
          timeline: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "home and/or notifications (timeline[]=…)" })),
        }),
        response: { 200: MarkersSchema, ...errors },
        detail: { summary: "Where you stopped reading your home timeline and notifications", tags: ["markers"] },
      },
    )
    .post(
      "/api/v1/markers",
      async ({ viewer, body }) => {
        const positions: { home?: string; notifications?: string } = {};
        if (body?.home) positions.home = body.home.last_read_id;
        if (body?.notifications) positions.notifications = body.notifications.last_read_id;
        return presentMarkers(await saveMarkers(deps, viewer.account.id, positions));
      },
      {
        auth: ["write:statuses"],
        body: t.Object({ home: Position, notifications: Position }),
        response: { 200: MarkersSchema, ...errors },
        detail: { summary: "Save where you stopped reading (version grows with every change)", tags: ["markers"] },
      },
    );
