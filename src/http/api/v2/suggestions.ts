// Follow suggestions: GET /api/v2/suggestions (Suggestion[]) and DELETE /api/v2/suggestions/:account_id
// (as Mastodon routes it beside the v1 one). The deprecated v1 routes are in ../v1/suggestions.ts.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { dismissSuggestion, suggestionsFor, SUGGESTIONS_LIMIT, type SuggestionsQuery } from "../../../domain/suggestions/suggest.ts";
import { presentSuggestion, SuggestionSchema } from "../../../entities/suggestion.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { parseLimit } from "../../plugins/paging.ts";
import { EmptyObject, ErrorBody } from "../../schemas.ts";

export const SuggestionsQuerySchema = t.Object({
  limit: t.Optional(t.String({ description: `Maximum number of results (default ${SUGGESTIONS_LIMIT}, at most ${SUGGESTIONS_LIMIT * 2})` })),
  offset: t.Optional(t.String({ description: "Skip this many suggestions (default 0)" })),
});

const DismissParams = t.Object({ account_id: t.String({ description: "Account id" }) });

export const suggestionErrors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };
export const READ = ["read:accounts"];
const WRITE = ["write:accounts"];

/** Mastodon reads `offset` with to_i: anything that is not a number is 0; negatives are 0 here. */
export function suggestionsQuery(query: { limit?: string; offset?: string }): SuggestionsQuery {
  const offset = query.offset === undefined ? 0 : parseInt(query.offset, 10);
  return { limit: parseLimit(query.limit, SUGGESTIONS_LIMIT), offset: Number.isFinite(offset) && offset > 0 ? offset : 0 };
}

/** DELETE /api/v1/suggestions/:account_id and its v2 twin: the one route, under either path. */
export const dismissRoute = (deps: Deps, path: `/api/v${1 | 2}/suggestions/:account_id`) =>
  new Elysia({ name: "suggestion-dismiss-route", seed: `${deps.store.dir} ${path}` })
    .use(authPlugin(deps))
    .delete(
      path,
      async ({ viewer, params }) => {
        await dismissSuggestion(deps, viewer.account.id, params.account_id);
        return {};
      },
      {
        auth: WRITE,
        params: DismissParams,
        response: { 200: EmptyObject, ...suggestionErrors },
        detail: { summary: "Never suggest this account again (any id answers {})", tags: ["suggestions"] },
      },
    );

export const suggestionV2Routes = (deps: Deps) =>
  new Elysia({ name: "suggestion-v2-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v2/suggestions",
      ({ viewer, query }) =>
        suggestionsFor(deps, viewer.account.id, suggestionsQuery(query)).map((s) => presentSuggestion(deps.config, s, viewer.account.id)),
      {
        auth: READ,
        query: SuggestionsQuerySchema,
        response: { 200: t.Array(SuggestionSchema), ...suggestionErrors },
        detail: { summary: "Accounts to follow, with why each is suggested (docs/suggestions.md)", tags: ["suggestions"] },
      },
    )
    .use(dismissRoute(deps, "/api/v2/suggestions/:account_id"));
