// GET /api/v1/favourites: the viewer's favourited statuses, newest favourite first, paged by favourite id.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { favouritedStatuses } from "../../../domain/statuses/lists.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { pageQuery } from "../../plugins/paging.ts";
import { authErrors, pagingQuery } from "../../schemas.ts";
import { STATUS_LIST_LIMIT, statusList, StatusListSchema } from "./statuses/shared.ts";

export const favouritesRoutes = (deps: Deps) =>
  new Elysia({ name: "favourites-routes", seed: deps.store.dir }).use(authPlugin(deps)).get(
    "/api/v1/favourites",
    ({ viewer, query, request, set }) => {
      const page = favouritedStatuses(deps.store, viewer.account.id, pageQuery(query, STATUS_LIST_LIMIT));
      return statusList(deps, request, set, viewer, page.items, { cursors: page.cursors });
    },
    {
      auth: ["read:favourites"],
      query: t.Object(pagingQuery),
      response: { 200: StatusListSchema, ...authErrors },
      detail: { summary: "Statuses you favourited, paged by favourite id (use the Link header)", tags: ["statuses"] },
    },
  );
