// GET /api/v1/accounts/relationships?id[]=…, GET /api/v1/accounts/familiar_followers?id[]=… and
// POST /api/v1/accounts/:id/note.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { RELATIONSHIP_LIMITS } from "../../../../domain/limits.ts";
import { relationshipsWith } from "../../../../domain/relationships/facts.ts";
import { setAccountNote } from "../../../../domain/relationships/note.ts";
import { familiarFollowers, MAX_FAMILIAR_IDS } from "../../../../domain/relationships/familiar.ts";
import { FamiliarFollowersSchema, presentFamiliarFollowers } from "../../../../entities/familiar-followers.ts";
import { presentRelationship, RelationshipSchema } from "../../../../entities/relationship.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { authErrors, Flag, toBool } from "../../../schemas.ts";
import { AccountIdParams, actionErrors } from "./shared.ts";

export const accountRelationshipRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-account-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/accounts/relationships",
      ({ viewer, query }) => {
        const ids = query.id === undefined ? [] : Array.isArray(query.id) ? query.id : [query.id];
        return relationshipsWith(deps.store, viewer.account.id, ids, toBool(query.with_suspended)).map(presentRelationship);
      },
      {
        auth: ["read:follows"],
        query: t.Object({
          id: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "Account ids (id[]=…)" })),
          with_suspended: t.Optional(Flag({ description: "Include suspended accounts (default false)" })),
        }),
        response: { 200: t.Array(RelationshipSchema), ...authErrors },
        detail: { summary: "How you relate to each of these accounts; unknown ids are left out", tags: ["relationships"] },
      },
    )
    .get(
      "/api/v1/accounts/familiar_followers",
      ({ viewer, query }) => {
        const ids = query.id === undefined ? [] : Array.isArray(query.id) ? query.id : [query.id];
        return familiarFollowers(deps, viewer.account.id, ids).map((entry) => presentFamiliarFollowers(deps.config, entry, viewer.account.id));
      },
      {
        auth: ["read:follows"],
        query: t.Object({
          id: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: `Account ids (id[]=…), at most ${MAX_FAMILIAR_IDS}` })),
        }),
        response: { 200: t.Array(FamiliarFollowersSchema), ...authErrors },
        detail: { summary: "For each account, the accounts you follow that follow it too", tags: ["relationships"] },
      },
    )
    .post(
      "/api/v1/accounts/:id/note",
      async ({ viewer, params, body }) => presentRelationship(await setAccountNote(deps, viewer.account, params.id, body?.comment ?? "")),
      {
        auth: ["write:accounts"],
        params: AccountIdParams,
        body: t.Object({
          comment: t.Optional(t.String({ description: `Private note, at most ${RELATIONSHIP_LIMITS.maxNoteLength} characters; empty removes it` })),
        }),
        response: { 200: RelationshipSchema, ...actionErrors },
        detail: { summary: "Set your private note on an account", tags: ["relationships"] },
      },
    );
