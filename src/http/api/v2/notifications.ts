// v2 grouped notifications (API.md §4.8, §6.2): pages of groups (limit counts groups, 40/80), one group by key
// (`ungrouped-<id>` too), dismissing a group, clear, unread_count (groups) and the accounts of a group.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { clearAllNotifications, dismissGroup } from "../../../domain/notifications/dismiss.ts";
import { GROUPABLE_TYPES } from "../../../domain/notifications/group-key.ts";
import { findGroup, groupSenders, pageGroupMembers, unreadGroupCount } from "../../../domain/notifications/group.ts";
import { NOTIFICATION_LIST_LIMIT, notificationFilter, UNREAD_COUNT_LIMIT, UNREAD_COUNT_MAX } from "../../../domain/notifications/read.ts";
import { AccountSchema, presentAccount } from "../../../entities/account.ts";
import { GroupedNotificationsSchema } from "../../../entities/grouped-notification.ts";
import { UnreadCountSchema } from "../../../entities/notification.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { boundedPageQuery, linkHeader, pageQuery, parseLimit } from "../../plugins/paging.ts";
import { groupedNotificationsFor } from "../../present.ts";
import { groupedNotificationsPage } from "../../cache/notification-groups.ts";
import { EmptyObject, ErrorBody, pagingQuery, toBool } from "../../schemas.ts";
import { filterQuery, listOf, TypeList } from "../v1/notifications.ts";

const READ = ["read:notifications"];
const WRITE = ["write:notifications"];
const errors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

const groupingQuery = {
  types: filterQuery.types,
  exclude_types: filterQuery.exclude_types,
  include_filtered: filterQuery.include_filtered,
  grouped_types: TypeList(`Group only these types (grouped_types[]=…; default ${GROUPABLE_TYPES.join(", ")})`),
};

// Pages are sent as rendered text (http/cache/notification-groups.ts), checked against this schema where they are rendered.
const GroupedPageSchema = Object.assign(t.Object(GroupedNotificationsSchema.properties, { description: GroupedNotificationsSchema.description }), { noValidate: true });

const GroupKeyParams = t.Object({ group_key: t.String({ maxLength: 100, description: "Group key, or ungrouped-<id>" }) });

/** null = every groupable type is grouped. */
function groupedTypesOf(value: string | string[] | undefined): Set<string> | null {
  return value === undefined ? null : new Set(listOf(value));
}

const notificationListRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-list-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v2/notifications",
      ({ viewer, query, request, set }) => {
        if (query.expand_accounts !== undefined && !["full", "partial_avatars"].includes(query.expand_accounts)) {
          throw new BadRequest("expand_accounts must be one of full, partial_avatars");
        }
        return groupedNotificationsPage(deps, request, set, viewer.account.id, {
          filter: notificationFilter(listOf(query.types), listOf(query.exclude_types), undefined, toBool(query.include_filtered)),
          groupedTypes: groupedTypesOf(query.grouped_types),
          paging: boundedPageQuery(query, NOTIFICATION_LIST_LIMIT),
          partial: query.expand_accounts === "partial_avatars",
        });
      },
      {
        auth: READ,
        query: t.Object({
          ...pagingQuery,
          ...groupingQuery,
          expand_accounts: t.Optional(t.String({ maxLength: 20, description: "full (default), or partial_avatars: each group's newest account in full, the others in partial_accounts" })),
        }),
        response: { 200: GroupedPageSchema, 400: ErrorBody, ...errors },
        detail: { summary: "Your notifications in groups, newest first (limit counts groups)", tags: ["notifications"] },
      },
    )
    .get(
      "/api/v2/notifications/unread_count",
      ({ viewer, query }) => {
        const filter = notificationFilter(listOf(query.types), listOf(query.exclude_types), undefined, toBool(query.include_filtered));
        const limit = parseLimit(query.limit, UNREAD_COUNT_LIMIT, UNREAD_COUNT_MAX);
        return { count: unreadGroupCount(deps.store, viewer.account.id, filter, groupedTypesOf(query.grouped_types), limit) };
      },
      {
        auth: READ,
        query: t.Object({ ...groupingQuery, limit: pagingQuery.limit }),
        response: { 200: UnreadCountSchema, ...errors },
        detail: { summary: "How many groups have notifications newer than your notifications marker", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v2/notifications/clear",
      async ({ viewer }) => {
        await clearAllNotifications(deps, viewer.account.id);
        return {};
      },
      {
        auth: WRITE,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Delete all your notifications", tags: ["notifications"] },
      },
    );

const notificationGroupRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-group-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v2/notifications/:group_key",
      ({ viewer, params }) => groupedNotificationsFor(deps, viewer.account.id, [findGroup(deps.store, viewer.account.id, params.group_key)], false),
      {
        auth: READ,
        params: GroupKeyParams,
        response: { 200: GroupedNotificationsSchema, 404: ErrorBody, ...errors },
        detail: { summary: "One notification group (ungrouped-<id> for a single notification)", tags: ["notifications"] },
      },
    )
    .get(
      "/api/v2/notifications/:group_key/accounts",
      ({ viewer, params, query, request, set }) => {
        const members = pageGroupMembers(deps.store, viewer.account.id, params.group_key, pageQuery(query, NOTIFICATION_LIST_LIMIT));
        const link = linkHeader({ baseUrl: deps.config.url, request, first: members[0]?.id, last: members.at(-1)?.id, next: true, prevParam: "min_id" });
        if (link) set.headers["link"] = link;
        return groupSenders(deps.store, members).map((a) => presentAccount(deps.config, a, viewer.account.id));
      },
      {
        auth: READ,
        params: GroupKeyParams,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AccountSchema), ...errors },
        detail: { summary: "The accounts behind a notification group, newest first", tags: ["notifications"] },
      },
    )
    .post(
      "/api/v2/notifications/:group_key/dismiss",
      async ({ viewer, params }) => {
        await dismissGroup(deps, viewer.account.id, params.group_key);
        return {};
      },
      {
        auth: WRITE,
        params: GroupKeyParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Delete every notification of a group (ungrouped-<id> works too)", tags: ["notifications"] },
      },
    );

export const notificationV2Routes = (deps: Deps) =>
  new Elysia({ name: "notification-v2-routes", seed: deps.store.dir })
    .use(notificationListRoutes(deps))
    .use(notificationGroupRoutes(deps));
