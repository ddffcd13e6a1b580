// Notification requests (Mastodon 4.3+; docs/notifications.md): the notifications your policy held back, one
// request per sender. Accept (lets the sender through and merges them) or dismiss (deletes them), one or many.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import {
  acceptRequests,
  BULK_IDS_MAX,
  dismissRequests,
  findRequest,
  listRequests,
  loadRequests,
  REQUEST_LIST_LIMIT,
  requestsMerged,
} from "../../../domain/notifications/requests.ts";
import { MergedSchema, NotificationRequestSchema, presentNotificationRequests } from "../../../entities/notification-request.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { linkHeader, pageQuery } from "../../plugins/paging.ts";
import { authErrors, EmptyObject, ErrorBody, pagingQuery } from "../../schemas.ts";

const READ = ["read:notifications"];
const WRITE = ["write:notifications"];
const oneErrors = { ...authErrors, 404: ErrorBody };
const IdParams = t.Object({ id: t.String({ maxLength: 30, description: "Notification request id" }) });
const RequestId = t.String({ maxLength: 30 });
const IdsBody = t.Object({
  // Mastodon.py sends `id[][]=…` (its own `[]` added to a name that has one), which Rack reads as a list of
  // one-id lists; Mastodon reads no id at all as none.
  id: t.Optional(
    t.Union([RequestId, t.Array(t.Union([RequestId, t.Array(RequestId, { maxItems: 1 })]), { maxItems: BULK_IDS_MAX })], {
      description: `Request ids (id[]=…, at most ${BULK_IDS_MAX}); unknown ones are ignored`,
    }),
  ),
});
const ids = (value: string | (string | string[])[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value.flat() : [value]);

const notificationRequestReadRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-request-read-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/notifications/requests",
      ({ viewer, query, request, set }) => {
        const paging = pageQuery(query, REQUEST_LIST_LIMIT);
        const page = listRequests(deps.store, viewer.account.id, paging);
        const full = page.length >= paging.limit;
        const link = linkHeader({ baseUrl: deps.config.url, request, first: page[0]?.id, last: page.at(-1)?.id, next: full, prevParam: "min_id" });
        if (link) set.headers["link"] = link;
        return presentNotificationRequests(deps.config, loadRequests(deps, viewer.account.id, page));
      },
      {
        auth: READ,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(NotificationRequestSchema), ...authErrors },
        detail: { summary: "Your pending notification requests, newest first", tags: ["notifications"] },
      },
    )
    .get("/api/v1/notifications/requests/merged", ({ viewer }) => ({ merged: requestsMerged(deps.store, viewer.account.id) }), {
      auth: READ,
      response: { 200: MergedSchema, ...authErrors },
      detail: { summary: "Whether the notifications of accepted requests have all joined your notifications", tags: ["notifications"] },
    })
    .get(
      "/api/v1/notifications/requests/:id",
      ({ viewer, params }) => {
        const found = findRequest(deps.store, viewer.account.id, params.id);
        return presentNotificationRequests(deps.config, loadRequests(deps, viewer.account.id, [found]))[0]!;
      },
      {
        auth: READ,
        params: IdParams,
        response: { 200: NotificationRequestSchema, ...oneErrors },
        detail: { summary: "One of your notification requests", tags: ["notifications"] },
      },
    );

const notificationRequestActionRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-request-action-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/notifications/requests/accept",
      async ({ viewer, body }) => {
        await acceptRequests(deps, viewer.account.id, ids(body.id));
        return {};
      },
      {
        auth: WRITE,
        body: IdsBody,
        response: { 200: EmptyObject, ...authErrors },
        detail: { summary: "Accept several notification requests", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v1/notifications/requests/dismiss",
      async ({ viewer, body }) => {
        await dismissRequests(deps, viewer.account.id, ids(body.id));
        return {};
      },
      {
        auth: WRITE,
        body: IdsBody,
        response: { 200: EmptyObject, ...authErrors },
        detail: { summary: "Dismiss several notification requests (their notifications are deleted)", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v1/notifications/requests/:id/accept",
      async ({ viewer, params }) => {
        await acceptRequests(deps, viewer.account.id, [params.id], true);
        return {};
      },
      {
        auth: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...oneErrors },
        detail: { summary: "Accept a notification request: its notifications join yours, the sender is let through from now on", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v1/notifications/requests/:id/dismiss",
      async ({ viewer, params }) => {
        await dismissRequests(deps, viewer.account.id, [params.id], true);
        return {};
      },
      {
        auth: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...oneErrors },
        detail: { summary: "Dismiss a notification request (its notifications are deleted)", tags: ["notifications"] },
      },
    );

export const notificationRequestRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-request-routes", seed: deps.store.dir })
    .use(notificationRequestReadRoutes(deps))
    .use(notificationRequestActionRoutes(deps));
