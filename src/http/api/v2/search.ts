// GET /api/v2/search and GET /api/v1/accounts/search. The domain (domain/search/search.ts) asks the engine
// (src/search/) and keeps only what the caller may see; here the parameters are read and the entities made.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { search, searchAccounts, SEARCH_LIMITS } from "../../../domain/search/search.ts";
import { movedTargetOf } from "../../../domain/accounts/read.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { searchEngineFor } from "../../../search/index.ts";
import { AccountSchema, presentAccounts } from "../../../entities/account.ts";
import { StatusSchema } from "../../../entities/status.ts";
import { presentTag, TagSchema } from "../../../entities/tag.ts";
import { tagFlagsOf } from "../../../domain/tags/follow.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { parseLimit } from "../../plugins/paging.ts";
import { statusesFor } from "../../present.ts";
import { ErrorBody, Flag, toBool } from "../../schemas.ts";

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

const commonQuery = {
  q: t.Optional(t.String({ description: "What to search for (required): words, `@user@domain`, `#tag` or a URL of this server" })),
  resolve: t.Optional(Flag({ description: "Resolve remote accounts and URLs (needs a user; remote servers are reached once federation exists)" })),
  following: t.Optional(Flag({ description: "Only accounts the user follows" })),
  offset: t.Optional(t.String({ description: "Results to skip (a negative offset counts as 0); needs a user" })),
};

const SearchQuery = t.Object({
  ...commonQuery,
  type: t.Optional(t.String({ description: "accounts, hashtags or statuses (one type; another word finds nothing)" })),
  account_id: t.Optional(t.String({ description: "Statuses: only by this account" })),
  exclude_unreviewed: t.Optional(Flag({ description: "Hashtags: only reviewed ones (every tag counts as reviewed here)" })),
  max_id: t.Optional(t.String({ description: "Statuses: older than this id" })),
  min_id: t.Optional(t.String({ description: "Statuses: newer than this id" })),
  limit: t.Optional(t.String({ description: `Results per type (default ${SEARCH_LIMITS.defaultLimit}, at most ${SEARCH_LIMITS.maxLimit})` })),
});

const SearchResultsSchema = t.Object(
  {
    accounts: t.Array(AccountSchema),
    statuses: t.Array(StatusSchema),
    hashtags: t.Array(TagSchema),
    collections: t.Array(t.Unknown(), { description: "Mastodon 4.6 collections: not supported, always empty" }),
  },
  { description: "Mastodon Search" },
);

/** `q` is required (400 as Mastodon); an offset that is not a positive number counts as 0. */
function required(q: string | undefined): string {
  if (q === undefined || q.trim() === "") throw new BadRequest("param is missing or the value is empty: q");
  return q;
}
const offsetOf = (raw: string | undefined) => Math.max(0, Number.parseInt(raw ?? "0", 10) || 0);

export const searchRoutes = (deps: Deps) =>
  new Elysia({ name: "search-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v2/search",
      async ({ viewer, query }) => {
        const viewerId = viewer?.account?.id ?? null;
        const results = await search(deps, await searchEngineFor(deps.store, deps.config), viewerId, {
          q: required(query.q),
          type: query.type,
          resolve: toBool(query.resolve),
          following: toBool(query.following),
          accountId: query.account_id,
          maxId: query.max_id,
          minId: query.min_id,
          limit: parseLimit(query.limit, SEARCH_LIMITS.defaultLimit, SEARCH_LIMITS.maxLimit),
          offset: offsetOf(query.offset),
        });
        return {
          accounts: presentAccounts(deps.config, results.accounts, viewerId, (account) => movedTargetOf(deps, account)),
          statuses: statusesFor(deps, viewer, results.statuses),
          hashtags: results.hashtags.map((tag) => presentTag(deps.config, tag.name, tag.history, viewerId ? tagFlagsOf(deps.store, viewerId, tag.name) : null)),
          collections: [],
        };
      },
      {
        maybeAuth: ["read:search"],
        // Anonymous answers are the same for everyone (no statuses, no paging): proxies may keep them briefly.
        publicCache: 15,
        query: SearchQuery,
        response: { 200: SearchResultsSchema, ...errors },
        detail: { summary: "Search accounts, hashtags and (for users) statuses; only what the caller may see", tags: ["search"] },
      },
    )
    .get(
      "/api/v1/accounts/search",
      async ({ viewer, query }) => {
        const viewerId = viewer.account.id;
        const accounts = await searchAccounts(deps, await searchEngineFor(deps.store, deps.config), viewerId, required(query.q), {
          limit: parseLimit(query.limit, SEARCH_LIMITS.accountsDefaultLimit, SEARCH_LIMITS.accountsMaxLimit),
          offset: offsetOf(query.offset),
          following: toBool(query.following),
        });
        return presentAccounts(deps.config, accounts, viewerId, (account) => movedTargetOf(deps, account));
      },
      {
        auth: ["read:accounts"],
        query: t.Object({
          ...commonQuery,
          limit: t.Optional(t.String({ description: `At most this many (default ${SEARCH_LIMITS.accountsDefaultLimit}, at most ${SEARCH_LIMITS.accountsMaxLimit})` })),
        }),
        response: { 200: t.Array(AccountSchema), ...errors },
        detail: { summary: "Accounts by acct, username or display name", tags: ["search", "accounts"] },
      },
    );
