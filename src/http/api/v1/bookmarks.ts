// GET /api/v1/bookmarks: the viewer's bookmarked statuses, newest bookmark first, paged by bookmark id.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { bookmarkedStatuses } from "../../../domain/statuses/lists.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { pageQuery } from "../../plugins/paging.ts";
import { authErrors, pagingQuery } from "../../schemas.ts";
import { STATUS_LIST_LIMIT, statusList, StatusListSchema } from "./statuses/shared.ts";

export const bookmarksRoutes = (deps: Deps) =>
  new Elysia({ name: "bookmarks-routes", seed: deps.store.dir }).use(authPlugin(deps)).get(
    "/api/v1/bookmarks",
    ({ viewer, query, request, set }) => {
      const page = bookmarkedStatuses(deps.store, viewer.account.id, pageQuery(query, STATUS_LIST_LIMIT));
      return statusList(deps, request, set, viewer, page.items, { cursors: page.cursors });
    },
    {
      auth: ["read:bookmarks"],
      query: t.Object(pagingQuery),
      response: { 200: StatusListSchema, ...authErrors },
      detail: { summary: "Statuses you bookmarked, paged by bookmark id (use the Link header)", tags: ["statuses"] },
    },
  );
