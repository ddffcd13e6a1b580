// Following: POST /api/v1/accounts/:id/follow, /unfollow, /remove_from_followers, and the public lists
// GET /api/v1/accounts/:id/followers and /following.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { followAccount, removeFromFollowers, unfollowAccount, type FollowOptions } from "../../../../domain/relationships/follow.ts";
import { followersPage, followingPage } from "../../../../domain/relationships/lists.ts";
import { AccountSchema } from "../../../../entities/account.ts";
import { presentRelationship, RelationshipSchema } from "../../../../entities/relationship.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pageQuery } from "../../../plugins/paging.ts";
import { ErrorBody, Flag, toBool, type FlagValue } from "../../../schemas.ts";
import { accountList, AccountIdParams, actionErrors, LIST_LIMIT, ListQuery } from "./shared.ts";

const FollowBody = t.Object({
  reblogs: t.Optional(Flag({ description: "Show their reblogs in the home timeline (default true)" })),
  notify: t.Optional(Flag({ description: "Notify me of their new statuses (default false)" })),
  languages: t.Optional(
    t.Array(t.String({ maxLength: 16, description: "ISO 639 code" }), {
      maxItems: 100,
      description: "Only statuses in these languages reach the home timeline (languages[]=…); empty = all",
    }),
  ),
});

function followOptions(body: { reblogs?: FlagValue; notify?: FlagValue; languages?: string[] } | null | undefined): FollowOptions {
  return {
    reblogs: body?.reblogs === undefined ? undefined : toBool(body.reblogs),
    notify: body?.notify === undefined ? undefined : toBool(body.notify),
    languages: body?.languages,
  };
}

const relationshipResponse = { 200: RelationshipSchema, ...actionErrors };
const listResponse = { 200: t.Array(AccountSchema), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const WRITE = ["write:follows"];

export const followRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-follow-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/accounts/:id/follow",
      async ({ viewer, params, body }) => presentRelationship(await followAccount(deps, viewer.account, params.id, followOptions(body))),
      {
        auth: WRITE,
        params: AccountIdParams,
        body: FollowBody,
        response: relationshipResponse,
        detail: {
          summary: "Follow an account (a follow request when it is locked); again to change reblogs, notify, languages",
          tags: ["relationships"],
        },
      },
    )
    .post("/api/v1/accounts/:id/unfollow", async ({ viewer, params }) => presentRelationship(await unfollowAccount(deps, viewer.account, params.id)), {
      auth: WRITE,
      params: AccountIdParams,
      response: relationshipResponse,
      detail: { summary: "Unfollow an account, or withdraw a pending follow request", tags: ["relationships"] },
    })
    .post(
      "/api/v1/accounts/:id/remove_from_followers",
      async ({ viewer, params }) => presentRelationship(await removeFromFollowers(deps, viewer.account, params.id)),
      {
        auth: WRITE,
        params: AccountIdParams,
        response: relationshipResponse,
        detail: { summary: "Make an account stop following you", tags: ["relationships"] },
      },
    )
    .get(
      "/api/v1/accounts/:id/followers",
      ({ viewer, params, query, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        return accountList(deps, request, set, followersPage(deps, viewerId, params.id, pageQuery(query, LIST_LIMIT)), viewerId);
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        params: AccountIdParams,
        query: ListQuery,
        response: listResponse,
        detail: {
          summary: "Accounts following this account, paged by follow id (empty when hidden by its owner)",
          tags: ["relationships"],
        },
      },
    )
    .get(
      "/api/v1/accounts/:id/following",
      ({ viewer, params, query, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        return accountList(deps, request, set, followingPage(deps, viewerId, params.id, pageQuery(query, LIST_LIMIT)), viewerId);
      },
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        params: AccountIdParams,
        query: ListQuery,
        response: listResponse,
        detail: {
          summary: "Accounts this account follows, paged by follow id (empty when hidden by its owner)",
          tags: ["relationships"],
        },
      },
    );
