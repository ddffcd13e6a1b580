// The deprecated v1 suggestions: GET /api/v1/suggestions (the accounts of the v2 suggestions, with
// Mastodon's `Deprecation` header) and DELETE /api/v1/suggestions/:account_id (what clients still call).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { suggestionsFor } from "../../../domain/suggestions/suggest.ts";
import { AccountSchema, presentAccount } from "../../../entities/account.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { dismissRoute, READ, suggestionErrors, suggestionsQuery, SuggestionsQuerySchema } from "../v2/suggestions.ts";

/** Mastodon deprecated GET /api/v1/suggestions on 2021-05-16. */
const DEPRECATION = "@1621123200";

export const suggestionV1Routes = (deps: Deps) =>
  new Elysia({ name: "suggestion-v1-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/suggestions",
      ({ viewer, query, set }) => {
        set.headers["deprecation"] = DEPRECATION;
        return suggestionsFor(deps, viewer.account.id, suggestionsQuery(query)).map((s) => presentAccount(deps.config, s.account, viewer.account.id));
      },
      {
        auth: READ,
        query: SuggestionsQuerySchema,
        response: { 200: t.Array(AccountSchema), ...suggestionErrors },
        detail: { summary: "Deprecated: the suggested accounts without their sources (use /api/v2/suggestions)", tags: ["suggestions"], deprecated: true },
      },
    )
    .use(dismissRoute(deps, "/api/v1/suggestions/:account_id"));
