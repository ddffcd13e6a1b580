// v1 notifications (API.md §6.1): list (40/80, Link next+prev on any non-empty page), one, dismiss, clear and
// unread_count (newer than the `notifications` marker, 100/1000).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { clearAllNotifications, dismissNotification } from "../../../domain/notifications/dismiss.ts";
import {
  findNotification,
  listNotifications,
  NOTIFICATION_LIST_LIMIT,
  notificationFilter,
  UNREAD_COUNT_LIMIT,
  UNREAD_COUNT_MAX,
  unreadCount,
} from "../../../domain/notifications/read.ts";
import { NotificationSchema, UnreadCountSchema } from "../../../entities/notification.ts";
import { NotFound } from "../../../lib/errors.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { boundedPageQuery, linkHeader, parseLimit } from "../../plugins/paging.ts";
import { notificationsFor } from "../../present.ts";
import { EmptyObject, ErrorBody, Flag, pagingQuery, toBool } from "../../schemas.ts";

const READ = ["read:notifications"];
const WRITE = ["write:notifications"];
const errors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };
const oneErrors = { ...errors, 404: ErrorBody };

export const TypeList = (description: string) => t.Optional(t.Union([t.String({ maxLength: 100 }), t.Array(t.String({ maxLength: 100 }))], { description }));

/** `types[]` and friends arrive as a string or an array. */
export function listOf(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const filterQuery = {
  types: TypeList("Only these types (types[]=…; unknown types are ignored)"),
  exclude_types: TypeList("Leave out these types (exclude_types[]=…)"),
  account_id: t.Optional(t.String({ maxLength: 30, description: "Only notifications from this account (held ones included)" })),
  include_filtered: t.Optional(Flag({ description: "Also the notifications your notification policy held back" })),
};

const IdParams = t.Object({ id: t.String({ description: "Notification id" }) });

export const notificationV1Routes = (deps: Deps) =>
  new Elysia({ name: "notification-v1-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/notifications",
      ({ viewer, query, request, set }) => {
        const filter = notificationFilter(listOf(query.types), listOf(query.exclude_types), query.account_id, toBool(query.include_filtered));
        const paging = boundedPageQuery(query, NOTIFICATION_LIST_LIMIT);
        const page = listNotifications(deps.store, viewer.account.id, filter, paging);
        const link = linkHeader({ baseUrl: deps.config.url, request, first: page[0]?.id, last: page.at(-1)?.id, next: true, prevParam: "min_id", budget: paging.budget });
        if (link) set.headers["link"] = link;
        return notificationsFor(deps, viewer.account.id, page);
      },
      {
        auth: READ,
        query: t.Object({ ...pagingQuery, ...filterQuery }),
        response: { 200: t.Array(NotificationSchema), ...errors },
        detail: { summary: "Your notifications, newest first (follow requests are not notifications)", tags: ["notifications"] },
      },
    )
    .get(
      "/api/v1/notifications/unread_count",
      ({ viewer, query }) => {
        const filter = notificationFilter(listOf(query.types), listOf(query.exclude_types), query.account_id, toBool(query.include_filtered));
        return { count: unreadCount(deps.store, viewer.account.id, filter, parseLimit(query.limit, UNREAD_COUNT_LIMIT, UNREAD_COUNT_MAX)) };
      },
      {
        auth: READ,
        query: t.Object({ ...filterQuery, limit: pagingQuery.limit }),
        response: { 200: UnreadCountSchema, ...errors },
        detail: { summary: "How many notifications are newer than your notifications marker (capped by limit)", tags: ["notifications"] },
      },
    )
    .get(
      "/api/v1/notifications/:id",
      ({ viewer, params }) => {
        const [presented] = notificationsFor(deps, viewer.account.id, [findNotification(deps.store, viewer.account.id, params.id)]);
        if (!presented) throw new NotFound();
        return presented;
      },
      {
        auth: READ,
        params: IdParams,
        response: { 200: NotificationSchema, ...oneErrors },
        detail: { summary: "One of your notifications", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v1/notifications/clear",
      async ({ viewer }) => {
        await clearAllNotifications(deps, viewer.account.id);
        return {};
      },
      {
        auth: WRITE,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Delete all your notifications", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v1/notifications/:id/dismiss",
      async ({ viewer, params }) => {
        await dismissNotification(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: WRITE,
        params: IdParams,
        response: { 200: EmptyObject, ...oneErrors },
        detail: { summary: "Delete one of your notifications", tags: ["notifications"] },
      },
    );
