// A user's domain blocks: GET /api/v1/domain_blocks (the domains, 100/200, Link by block), POST and DELETE
// with `domain` (in the body or the query).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { blockDomain, domainBlocksPage, unblockDomain } from "../../../domain/relationships/domain-blocks.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { linkHeader, pageQuery } from "../../plugins/paging.ts";
import { EmptyObject, ErrorBody, pagingQuery } from "../../schemas.ts";

/** 100 by default, at most 200 (API.md §9). */
const DOMAIN_BLOCK_LIMIT = 100;
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };
const DomainParam = t.Object({ domain: t.Optional(t.String({ description: "The domain, e.g. example.com" })) });

export const domainBlockRoutes = (deps: Deps) =>
  new Elysia({ name: "user-domain-block-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/domain_blocks",
      ({ viewer, query, request, set }) => {
        const paging = pageQuery(query, DOMAIN_BLOCK_LIMIT);
        const { domains, cursors } = domainBlocksPage(deps, viewer.account.id, paging);
        const link = linkHeader({
          baseUrl: deps.config.url, request, first: cursors[0], last: cursors.at(-1), next: cursors.length === paging.limit, prevParam: "since_id",
        });
        if (link) set.headers["link"] = link;
        return domains;
      },
      {
        auth: ["read:blocks"],
        query: t.Object(pagingQuery),
        response: { 200: t.Array(t.String()), ...errors },
        detail: { summary: "The domains you block, newest first (use the Link header)", tags: ["relationships"] },
      },
    )
    .post(
      "/api/v1/domain_blocks",
      async ({ viewer, body, query }) => {
        await blockDomain(deps, viewer.account, body?.domain ?? query.domain);
        return {};
      },
      {
        auth: ["write:blocks"],
        body: t.Optional(DomainParam),
        query: DomainParam,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Block a domain: its accounts' statuses and notifications are hidden, follows both ways end", tags: ["relationships"] },
      },
    )
    .delete(
      "/api/v1/domain_blocks",
      async ({ viewer, body, query }) => {
        await unblockDomain(deps, viewer.account, body?.domain ?? query.domain);
        return {};
      },
      {
        auth: ["write:blocks"],
        body: t.Optional(DomainParam),
        query: DomainParam,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Unblock a domain", tags: ["relationships"] },
      },
    );
