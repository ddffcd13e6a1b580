// Announcements (docs/instance.md#announcements): GET /api/v1/announcements (the active ones, oldest first;
// dismissed ones only with with_dismissed), POST …/:id/dismiss, PUT/DELETE …/:id/reactions/:name.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { addReaction, announcementsFor, dismissAnnouncement, withdrawReaction } from "../../../domain/announcements/announcements.ts";
import { AnnouncementSchema, presentAnnouncement } from "../../../entities/announcement.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody, Flag, toBool } from "../../schemas.ts";

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ maxLength: 30, description: "Announcement id" }) });
const ReactionParams = t.Object({
  id: t.String({ maxLength: 30, description: "Announcement id" }),
  name: t.String({ maxLength: 100, description: "A Unicode emoji or a custom emoji's shortcode" }),
});

export const announcementRoutes = (deps: Deps) =>
  new Elysia({ name: "announcement-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/announcements",
      ({ viewer, query }) => announcementsFor(deps.store, viewer.account.id, toBool(query.with_dismissed)).map((a) => presentAnnouncement(deps.config, a)),
      {
        auth: ["read"],
        query: t.Object({ with_dismissed: t.Optional(Flag({ description: "Also the ones you dismissed" })) }),
        response: { 200: t.Array(AnnouncementSchema), ...errors },
        detail: { summary: "The server's current announcements, oldest first", tags: ["announcements"] },
      },
    )
    .post(
      "/api/v1/announcements/:id/dismiss",
      async ({ viewer, params }) => {
        await dismissAnnouncement(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: ["write:accounts"],
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Mark an announcement read", tags: ["announcements"] },
      },
    )
    .put(
      "/api/v1/announcements/:id/reactions/:name",
      async ({ viewer, params }) => {
        await addReaction(deps, viewer.account.id, params.id, params.name);
        return {};
      },
      {
        auth: ["write:favourites"],
        params: ReactionParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "React to an announcement (at most 8 different reactions per announcement)", tags: ["announcements"] },
      },
    )
    .delete(
      "/api/v1/announcements/:id/reactions/:name",
      async ({ viewer, params }) => {
        await withdrawReaction(deps, viewer.account.id, params.id, params.name);
        return {};
      },
      {
        auth: ["write:favourites"],
        params: ReactionParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Withdraw your reaction", tags: ["announcements"] },
      },
    );
