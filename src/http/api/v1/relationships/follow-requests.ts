// Follow requests to the signed-in (locked) account: GET /api/v1/follow_requests and
// POST /api/v1/follow_requests/:account_id/authorize | reject.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { authorizeFollowRequest, rejectFollowRequest } from "../../../../domain/relationships/follow-requests.ts";
import { followRequestsPage } from "../../../../domain/relationships/lists.ts";
import { AccountSchema } from "../../../../entities/account.ts";
import { presentRelationship, RelationshipSchema } from "../../../../entities/relationship.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { pageQuery } from "../../../plugins/paging.ts";
import { authErrors } from "../../../schemas.ts";
import { accountList, actionErrors, LIST_LIMIT, ListQuery } from "./shared.ts";

const RequesterParams = t.Object({ account_id: t.String({ description: "Id of the account that asked to follow" }) });
const WRITE = ["write:follows"];

export const followRequestRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-follow-request-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/follow_requests",
      ({ viewer, query, request, set }) =>
        accountList(deps, request, set, followRequestsPage(deps, viewer.account.id, pageQuery(query, LIST_LIMIT)), viewer.account.id),
      {
        auth: ["read:follows"],
        query: ListQuery,
        response: { 200: t.Array(AccountSchema), ...authErrors },
        detail: { summary: "Accounts waiting for you to answer their follow request, paged by request id", tags: ["relationships"] },
      },
    )
    .post(
      "/api/v1/follow_requests/:account_id/authorize",
      async ({ viewer, params }) => presentRelationship(await authorizeFollowRequest(deps, viewer.account, params.account_id)),
      {
        auth: WRITE,
        params: RequesterParams,
        response: { 200: RelationshipSchema, ...actionErrors },
        detail: { summary: "Accept a follow request: the account now follows you", tags: ["relationships"] },
      },
    )
    .post(
      "/api/v1/follow_requests/:account_id/reject",
      async ({ viewer, params }) => presentRelationship(await rejectFollowRequest(deps, viewer.account, params.account_id)),
      {
        auth: WRITE,
        params: RequesterParams,
        response: { 200: RelationshipSchema, ...actionErrors },
        detail: { summary: "Reject a follow request", tags: ["relationships"] },
      },
    );
