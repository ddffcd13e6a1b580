// Endorsements: POST /api/v1/accounts/:id/endorse|unendorse and the older pin|unpin (Relationship with
// `endorsed`), GET /api/v1/endorsements and GET /api/v1/accounts/:id/endorsements (40/80, Link by endorsement).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { accountEndorsements, endorseAccount, ownEndorsements, unendorseAccount } from "../../../domain/accounts/endorsements.ts";
import { AccountSchema } from "../../../entities/account.ts";
import { presentRelationship, RelationshipSchema } from "../../../entities/relationship.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { pageQuery } from "../../plugins/paging.ts";
import { accountList, AccountIdParams, actionErrors, LIST_LIMIT, ListQuery } from "./relationships/shared.ts";

const action = (summary: string) => ({
  auth: ["write:accounts"],
  params: AccountIdParams,
  response: { 200: RelationshipSchema, ...actionErrors },
  detail: { summary, tags: ["relationships"] },
});

export const endorsementRoutes = (deps: Deps) =>
  new Elysia({ name: "endorsement-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/accounts/:id/endorse",
      async ({ viewer, params }) => presentRelationship(await endorseAccount(deps, viewer.account, params.id)),
      action("Feature an account you follow on your profile"),
    )
    .post(
      "/api/v1/accounts/:id/pin",
      async ({ viewer, params }) => presentRelationship(await endorseAccount(deps, viewer.account, params.id)),
      action("Feature an account you follow on your profile (older name of endorse)"),
    )
    .post(
      "/api/v1/accounts/:id/unendorse",
      async ({ viewer, params }) => presentRelationship(await unendorseAccount(deps, viewer.account, params.id)),
      action("Stop featuring an account"),
    )
    .post(
      "/api/v1/accounts/:id/unpin",
      async ({ viewer, params }) => presentRelationship(await unendorseAccount(deps, viewer.account, params.id)),
      action("Stop featuring an account (older name of unendorse)"),
    )
    .get(
      "/api/v1/endorsements",
      ({ viewer, query, request, set }) =>
        accountList(deps, request, set, ownEndorsements(deps, viewer.account.id, pageQuery(query, LIST_LIMIT)), viewer.account.id),
      {
        auth: ["read:accounts"],
        query: ListQuery,
        response: { 200: t.Array(AccountSchema), ...actionErrors },
        detail: { summary: "The accounts you feature, newest first (use the Link header)", tags: ["relationships"] },
      },
    )
    .get(
      "/api/v1/accounts/:id/endorsements",
      ({ viewer, params, query, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        return accountList(deps, request, set, accountEndorsements(deps, viewerId, params.id, pageQuery(query, LIST_LIMIT)), viewerId);
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        params: AccountIdParams,
        query: ListQuery,
        response: { 200: t.Array(AccountSchema), ...actionErrors },
        detail: { summary: "The accounts an account features (none if it hides its collections)", tags: ["relationships"] },
      },
    );
