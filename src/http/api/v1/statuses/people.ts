// GET /api/v1/statuses/:id/favourited_by and /reblogged_by: accounts, paged by the favourite's or the
// reblog's id (API.md §1.5), `next` when the page is full, `prev` with since_id.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { favouritedBy, rebloggedBy, type Paged } from "../../../../domain/statuses/lists.ts";
import { visibleStatus } from "../../../../domain/statuses/read.ts";
import { AccountSchema, presentAccounts } from "../../../../entities/account.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { linkHeader, pageQuery } from "../../../plugins/paging.ts";
import { pagingQuery } from "../../../schemas.ts";
import { ACCOUNT_LIST_LIMIT, readErrors, StatusIdParams, type Setter } from "./shared.ts";
import type { AccountRecord } from "../../../../model/accounts.ts";

function accountPage(deps: Deps, request: Request, set: Setter, viewerId: string | null, page: Paged<AccountRecord>, limit: number) {
  const link = linkHeader({
    baseUrl: deps.config.url,
    request,
    first: page.cursors[0],
    last: page.cursors.at(-1),
    next: page.items.length >= limit && limit > 0,
    prevParam: "since_id",
  });
  if (link) set.headers["link"] = link;
  return presentAccounts(deps.config, page.items, viewerId);
}

const options = (summary: string) => ({
  maybeAuth: ["read:accounts"],
  publicCache: 15,
  params: StatusIdParams,
  query: t.Object(pagingQuery),
  response: { 200: t.Array(AccountSchema), ...readErrors },
  detail: { summary, tags: ["statuses"] },
});

export const statusPeopleRoutes = (deps: Deps) =>
  new Elysia({ name: "status-people-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/statuses/:id/favourited_by",
      ({ viewer, params, query, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        const status = visibleStatus(deps.store, viewerId, params.id);
        const page = pageQuery(query, ACCOUNT_LIST_LIMIT);
        return accountPage(deps, request, set, viewerId, favouritedBy(deps.store, status.reblogOfId ?? status.id, page), page.limit);
      },
      options("Who favourited a status, paged by favourite id"),
    )
    .get(
      "/api/v1/statuses/:id/reblogged_by",
      ({ viewer, params, query, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        const status = visibleStatus(deps.store, viewerId, params.id);
        const page = pageQuery(query, ACCOUNT_LIST_LIMIT);
        return accountPage(deps, request, set, viewerId, rebloggedBy(deps.store, viewerId, status.reblogOfId ?? status.id, page), page.limit);
      },
      options("Who reblogged a status, paged by the reblog's id"),
    );
