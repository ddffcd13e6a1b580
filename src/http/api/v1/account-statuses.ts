// GET /api/v1/accounts/:id/statuses (and /statuses/media, the spec's media-only listing).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { findVisibleAccount } from "../../../domain/accounts/read.ts";
import { accountStatuses, type AccountStatusFilters } from "../../../domain/statuses/lists.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { boundedPageQuery } from "../../plugins/paging.ts";
import { Flag, pagingQuery, toBool } from "../../schemas.ts";
import type { Viewer } from "../../../domain/auth/viewer.ts";
import { readErrors, STATUS_LIST_LIMIT, statusList, StatusListSchema, type Setter } from "./statuses/shared.ts";
import { PageWindows } from "../../cache/page-windows.ts";
import type { Status } from "../../../entities/status.ts";
import type { PageQuery } from "../../../model/paging.ts";

const AccountStatusesQuery = t.Object({
  ...pagingQuery,
  only_media: t.Optional(Flag({ description: "Only statuses with media attachments" })),
  exclude_replies: t.Optional(Flag({ description: "Leave out replies to others (replies to oneself stay)" })),
  exclude_reblogs: t.Optional(Flag({ description: "Leave out reblogs" })),
  pinned: t.Optional(Flag({ description: "Only pinned statuses" })),
  tagged: t.Optional(t.String({ description: "Only statuses with this hashtag" })),
});

type Query = typeof AccountStatusesQuery.static;

function filters(query: Query, onlyMedia = false): AccountStatusFilters {
  return {
    onlyMedia: onlyMedia || toBool(query.only_media),
    excludeReplies: toBool(query.exclude_replies),
    excludeReblogs: toBool(query.exclude_reblogs),
    pinned: toBool(query.pinned),
    tagged: query.tagged?.trim() || null,
  };
}

const options = (summary: string) => ({
  maybeAuth: ["read:statuses"],
  publicCache: 15,
  params: t.Object({ id: t.String({ description: "Account id" }) }),
  query: AccountStatusesQuery,
  response: { 200: StatusListSchema, ...readErrors },
  detail: { summary, tags: ["statuses"] },
});

export const accountStatusesRoutes = (deps: Deps) => {
  // Pages below a max_id cut from windows of the account's statuses, as the timelines' (http/cache/page-windows.ts).
  const windows = new PageWindows();
  const list = (viewer: Viewer | null, id: string, query: Query, request: Request, set: Setter, onlyMedia: boolean): Status[] => {
    const account = findVisibleAccount(deps, id);
    const page = boundedPageQuery(query, STATUS_LIST_LIMIT);
    const chosen = filters(query, onlyMedia);
    // The account is read again inside the read, so that a window depends on it (a suspension empties the list).
    const read = (p: PageQuery) => accountStatuses(deps.store, viewer?.account?.id ?? null, findVisibleAccount(deps, account.id), chosen, p);
    // Pinned statuses are read from the pins, which no window follows.
    if (!chosen.pinned) {
      const cut = windows.answer(deps, request, set, viewer ?? null, page, { read, context: "account" });
      if (cut) return cut as unknown as Status[];
    }
    return statusList(deps, request, set, viewer, read(page), { budget: page.budget, context: "account" });
  };
  return new Elysia({ name: "account-statuses-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/accounts/:id/statuses",
      ({ viewer, params, query, request, set }) => list(viewer, params.id, query, request, set, false),
      options("An account's statuses and reblogs that you may see, newest first"),
    )
    .get(
      "/api/v1/accounts/:id/statuses/media",
      ({ viewer, params, query, request, set }) => list(viewer, params.id, query, request, set, true),
      options("An account's statuses with media attachments"),
    );
};
