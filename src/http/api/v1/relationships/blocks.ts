// Blocks: POST /api/v1/accounts/:id/block | unblock and GET /api/v1/blocks.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { blockAccount, unblockAccount } from "../../../../domain/relationships/block.ts";
import { blocksPage } from "../../../../domain/relationships/lists.ts";
import { AccountSchema } from "../../../../entities/account.ts";
import { presentRelationship, RelationshipSchema } from "../../../../entities/relationship.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { pageQuery } from "../../../plugins/paging.ts";
import { authErrors } from "../../../schemas.ts";
import { accountList, AccountIdParams, actionErrors, LIST_LIMIT, ListQuery } from "./shared.ts";

const relationshipResponse = { 200: RelationshipSchema, ...actionErrors };

export const blockRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-block-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post("/api/v1/accounts/:id/block", async ({ viewer, params }) => presentRelationship(await blockAccount(deps, viewer.account, params.id)), {
      auth: ["write:blocks"],
      params: AccountIdParams,
      response: relationshipResponse,
      detail: {
        summary: "Block an account: follows and follow requests both ways end at once; the rest of the clean-up follows",
        tags: ["relationships"],
      },
    })
    .post("/api/v1/accounts/:id/unblock", async ({ viewer, params }) => presentRelationship(await unblockAccount(deps, viewer.account, params.id)), {
      auth: ["write:blocks"],
      params: AccountIdParams,
      response: relationshipResponse,
      detail: { summary: "Unblock an account", tags: ["relationships"] },
    })
    .get(
      "/api/v1/blocks",
      ({ viewer, query, request, set }) =>
        accountList(deps, request, set, blocksPage(deps, viewer.account.id, pageQuery(query, LIST_LIMIT)), viewer.account.id),
      {
        auth: ["read:blocks"],
        query: ListQuery,
        response: { 200: t.Array(AccountSchema), ...authErrors },
        detail: { summary: "Accounts you block, paged by block id", tags: ["relationships"] },
      },
    );
