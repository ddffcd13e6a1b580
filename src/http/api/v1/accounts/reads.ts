// Public account reads: GET /api/v1/accounts/:id, GET /api/v1/accounts?id[]=…, GET /api/v1/accounts/lookup,
// and the deprecated GET /api/v1/accounts/:id/identity_proofs (Mastodon still answers it with an empty list).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { BadRequest } from "../../../../lib/errors.ts";
import { findVisibleAccount, findVisibleAccounts, lookupAccount, MAX_ACCOUNT_IDS, movedTargetOf } from "../../../../domain/accounts/read.ts";
import { AccountSchema, presentAccount, presentAccounts } from "../../../../entities/account.ts";
import { askForRefresh } from "../../../../federation/background-asks.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { ErrorBody } from "../../../schemas.ts";

const readErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const readRoutes = (deps: Deps) =>
  new Elysia({ name: "accounts-read-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/accounts",
      ({ viewer, query }) => {
        const ids = query.id === undefined ? [] : Array.isArray(query.id) ? query.id : [query.id];
        return presentAccounts(deps.config, findVisibleAccounts(deps, ids), viewer?.account?.id ?? null, (account) => movedTargetOf(deps, account));
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        query: t.Object({
          id: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: `Account ids (id[]=…), at most ${MAX_ACCOUNT_IDS}` })),
        }),
        response: { 200: t.Array(AccountSchema), ...readErrors, 422: ErrorBody },
        detail: { summary: "Several accounts by id, in the order given; unknown ones are left out", tags: ["accounts"] },
      },
    )
    .get(
      "/api/v1/accounts/lookup",
      ({ viewer, query }) => {
        if (!query.acct.trim()) throw new BadRequest("param is missing or the value is empty: acct");
        const account = lookupAccount(deps, query.acct);
        return presentAccount(deps.config, account, viewer?.account?.id ?? null, movedTargetOf(deps, account));
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        query: t.Object({ acct: t.String({ description: "user, user@this-domain or user@remote-domain" }) }),
        response: { 200: AccountSchema, 400: ErrorBody, ...readErrors },
        detail: { summary: "An already-known account by its acct (never fetched remotely)", tags: ["accounts"] },
      },
    )
    .get(
      "/api/v1/accounts/:id",
      ({ viewer, params }) => {
        const account = findVisibleAccount(deps, params.id);
        // A remote profile a day old is fetched again in the background (federation/account-completion.ts).
        askForRefresh(deps, account);
        return presentAccount(deps.config, account, viewer?.account?.id ?? null, movedTargetOf(deps, account));
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        params: t.Object({ id: t.String({ description: "Account id" }) }),
        response: { 200: AccountSchema, ...readErrors },
        detail: { summary: "One account", tags: ["accounts"] },
      },
    )
    .get(
      "/api/v1/accounts/:id/identity_proofs",
      ({ params }) => {
        findVisibleAccount(deps, params.id);
        return [];
      },
      {
        auth: ["read", "read:accounts"],
        params: t.Object({ id: t.String({ description: "Account id" }) }),
        response: { 200: t.Array(t.Object({}), { maxItems: 0, description: "Always empty: identity proofs were removed in Mastodon 3.5" }), ...readErrors, 422: ErrorBody },
        detail: { summary: "Deprecated: always an empty list for a known account", tags: ["accounts"], deprecated: true },
      },
    );
