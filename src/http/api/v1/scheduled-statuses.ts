// GET /api/v1/scheduled_statuses (paged), GET/PUT/DELETE /api/v1/scheduled_statuses/:id: the viewer's own.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { cancelScheduled, ownScheduledStatus, reschedule, scheduledMedia, scheduledStatusesOf } from "../../../domain/statuses/scheduled.ts";
import { presentScheduledStatus, ScheduledStatusSchema } from "../../../entities/scheduled-status.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { linkHeader, pageQuery } from "../../plugins/paging.ts";
import { authErrors, ErrorBody, pagingQuery } from "../../schemas.ts";
import type { ScheduledStatusRecord } from "../../../model/statuses.ts";

const LIMIT = 20;
const Params = t.Object({ id: t.String({ description: "Scheduled status id" }) });
const errors = { ...authErrors, 404: ErrorBody };
const tags = ["scheduled statuses"];

export const scheduledStatusRoutes = (deps: Deps) => {
  const present = (record: ScheduledStatusRecord) => presentScheduledStatus(deps.config, record, scheduledMedia(deps.store, record));
  return new Elysia({ name: "scheduled-status-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/scheduled_statuses",
      ({ viewer, query, request, set }) => {
        const page = scheduledStatusesOf(deps.store, viewer.account.id, pageQuery(query, LIMIT));
        const link = linkHeader({ baseUrl: deps.config.url, request, first: page[0]?.id, last: page.at(-1)?.id, next: true, prevParam: "min_id" });
        if (link) set.headers["link"] = link;
        return page.map(present);
      },
      {
        auth: ["read:statuses"],
        query: t.Object(pagingQuery),
        response: { 200: t.Array(ScheduledStatusSchema), ...authErrors },
        detail: { summary: `Your scheduled statuses, newest first (${LIMIT}, at most ${LIMIT * 2}; use the Link header)`, tags },
      },
    )
    .get("/api/v1/scheduled_statuses/:id", ({ viewer, params }) => present(ownScheduledStatus(deps.store, viewer.account.id, params.id)), {
      auth: ["read:statuses"],
      params: Params,
      response: { 200: ScheduledStatusSchema, ...errors },
      detail: { summary: "One of your scheduled statuses", tags },
    })
    .put("/api/v1/scheduled_statuses/:id", async ({ viewer, params, body }) => present(await reschedule(deps, viewer, params.id, body.scheduled_at)), {
      auth: ["write:statuses"],
      params: Params,
      body: t.Object({ scheduled_at: t.Optional(t.String({ description: "The new time, at least 5 minutes ahead (ISO 8601)" })) }),
      response: { 200: ScheduledStatusSchema, ...errors },
      detail: { summary: "Move a scheduled status to another time", tags },
    })
    .delete(
      "/api/v1/scheduled_statuses/:id",
      async ({ viewer, params }) => {
        await cancelScheduled(deps, viewer, params.id);
        return {};
      },
      {
        auth: ["write:statuses"],
        params: Params,
        response: { 200: t.Object({}, { description: "Empty: it will not be posted" }), ...errors },
        detail: { summary: "Cancel a scheduled status; its attachments are free again", tags },
      },
    );
};
