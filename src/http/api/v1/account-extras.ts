// GET /api/v1/preferences and GET /api/v1/directory.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { directory } from "../../../domain/accounts/directory.ts";
import { preferencesOf } from "../../../domain/accounts/preferences.ts";
import { AccountSchema, presentAccounts } from "../../../entities/account.ts";
import { presentPreferences, PreferencesSchema } from "../../../entities/preferences.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { parseLimit } from "../../plugins/paging.ts";
import { authErrors, ErrorBody, Flag, toBool } from "../../schemas.ts";

/** 40 by default, at most 80 (API.md §9). */
const DIRECTORY_LIMIT = 40;

export const accountExtraRoutes = (deps: Deps) =>
  new Elysia({ name: "account-extra-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/preferences", ({ viewer }) => presentPreferences(preferencesOf(viewer.user)), {
      auth: ["read:accounts"],
      response: { 200: PreferencesSchema, ...authErrors },
      detail: { summary: "Your posting defaults and reading preferences", tags: ["accounts"] },
    })
    .get(
      "/api/v1/directory",
      ({ viewer, query }) => {
        const viewerId = viewer?.account?.id ?? null;
        const offset = Math.max(0, parseInt(query.offset ?? "0", 10) || 0);
        const accounts = directory(deps, viewerId, {
          order: query.order === "new" ? "new" : "active",
          local: toBool(query.local),
          offset,
          limit: parseLimit(query.limit, DIRECTORY_LIMIT),
        });
        return presentAccounts(deps.config, accounts, viewerId);
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        query: t.Object({
          order: t.Optional(t.String({ description: "active (default: most recent status first) or new (newest account first)" })),
          local: t.Optional(Flag({ description: "Only accounts of this server" })),
          offset: t.Optional(t.String({ description: "Skip this many accounts" })),
          limit: t.Optional(t.String({ description: "At most this many (default 40, at most 80)" })),
        }),
        response: { 200: t.Array(AccountSchema), 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
        detail: { summary: "The profile directory: accounts that chose to be listed", tags: ["accounts"] },
      },
    );
