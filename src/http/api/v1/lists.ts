// Lists: GET/POST /api/v1/lists, GET/PUT/DELETE /api/v1/lists/:id, GET/POST/DELETE /api/v1/lists/:id/accounts,
// and GET /api/v1/accounts/:id/lists. Only your own lists exist for you: any other id is 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { createList, deleteList, findOwnList, ownLists, updateList, type ListInput } from "../../../domain/lists/manage.ts";
import { addListMembers, listMembersPage, listsWithAccount, removeListMembers } from "../../../domain/lists/members.ts";
import { LIST_LIMITS } from "../../../domain/limits.ts";
import { AccountSchema, presentAccount } from "../../../entities/account.ts";
import { ListSchema, presentList } from "../../../entities/list.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { pageQuery } from "../../plugins/paging.ts";
import { EmptyObject, ErrorBody, Flag, pagingQuery, toBool, type FlagValue } from "../../schemas.ts";
import { accountList, LIST_LIMIT } from "./relationships/shared.ts";

const ListBody = t.Object({
  title: t.Optional(t.String({ description: `Required when creating; at most ${LIST_LIMITS.maxTitleLength} characters` })),
  replies_policy: t.Optional(t.String({ description: "followed, list (default) or none" })),
  exclusive: t.Optional(Flag({ description: "Leave members' statuses out of the home timeline (default false)" })),
});

const AccountIds = t.Object({
  account_ids: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "Account ids (account_ids[]=…)" })),
});

const ListIdParams = t.Object({ id: t.String({ description: "List id" }) });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const READ = ["read:lists"];
const WRITE = ["write:lists"];

function listInput(body: { title?: string; replies_policy?: string; exclusive?: FlagValue } | null | undefined): ListInput {
  return {
    title: body?.title,
    repliesPolicy: body?.replies_policy,
    exclusive: body?.exclusive === undefined ? undefined : toBool(body.exclusive),
  };
}

function ids(value: string | string[] | undefined): string[] {
  return (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter((id) => id !== "");
}

const listOwnRoutes = (deps: Deps) =>
  new Elysia({ name: "list-own-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/lists", ({ viewer }) => ownLists(deps.store, viewer.account.id).map(presentList), {
      auth: READ,
      response: { 200: t.Array(ListSchema), ...errors },
      detail: { summary: "Your lists", tags: ["lists"] },
    })
    .post("/api/v1/lists", async ({ viewer, body }) => presentList(await createList(deps, viewer.account.id, listInput(body))), {
      auth: WRITE,
      body: ListBody,
      response: { 200: ListSchema, ...errors },
      detail: { summary: `Create a list (at most ${LIST_LIMITS.maxListsPerAccount})`, tags: ["lists"] },
    })
    .get("/api/v1/lists/:id", ({ viewer, params }) => presentList(findOwnList(deps.store, viewer.account.id, params.id)), {
      auth: READ,
      params: ListIdParams,
      response: { 200: ListSchema, ...errors },
      detail: { summary: "One of your lists", tags: ["lists"] },
    })
    .put("/api/v1/lists/:id", async ({ viewer, params, body }) => presentList(await updateList(deps, viewer.account.id, params.id, listInput(body))), {
      auth: WRITE,
      params: ListIdParams,
      body: ListBody,
      response: { 200: ListSchema, ...errors },
      detail: { summary: "Change a list's title, replies_policy or exclusive", tags: ["lists"] },
    })
    .delete(
      "/api/v1/lists/:id",
      async ({ viewer, params }) => {
        await deleteList(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: WRITE,
        params: ListIdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Delete a list", tags: ["lists"] },
      },
    );

const listMemberRoutes = (deps: Deps) =>
  new Elysia({ name: "list-member-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/lists/:id/accounts",
      ({ viewer, params, query, request, set }) => {
        const list = findOwnList(deps.store, viewer.account.id, params.id);
        // limit=0: every member, unpaged (no Link), as Mastodon does.
        const all = query.limit === "0";
        const page = listMembersPage(deps.store, list, pageQuery(query, LIST_LIMIT), all);
        if (all) return page.entries.map((entry) => presentAccount(deps.config, entry.account, viewer.account.id));
        return accountList(deps, request, set, page, viewer.account.id);
      },
      {
        auth: READ,
        params: ListIdParams,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(AccountSchema), ...errors },
        detail: { summary: "The accounts on a list (limit=0: all of them)", tags: ["lists"] },
      },
    )
    .post(
      "/api/v1/lists/:id/accounts",
      async ({ viewer, params, body }) => {
        await addListMembers(deps, viewer.account.id, params.id, ids(body?.account_ids));
        return {};
      },
      {
        auth: WRITE,
        params: ListIdParams,
        body: AccountIds,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Add accounts you follow to a list", tags: ["lists"] },
      },
    )
    .delete(
      "/api/v1/lists/:id/accounts",
      async ({ viewer, params, body, query }) => {
        await removeListMembers(deps, viewer.account.id, params.id, ids(body?.account_ids ?? query.account_ids));
        return {};
      },
      {
        auth: WRITE,
        params: ListIdParams,
        body: t.Optional(AccountIds),
        query: AccountIds,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Remove accounts from a list (account_ids[] in the body or the query)", tags: ["lists"] },
      },
    )
    .get("/api/v1/accounts/:id/lists", ({ viewer, params }) => listsWithAccount(deps.store, viewer.account.id, params.id).map(presentList), {
      auth: READ,
      params: t.Object({ id: t.String({ description: "Account id" }) }),
      response: { 200: t.Array(ListSchema), ...errors },
      detail: { summary: "Your lists that an account is on", tags: ["lists"] },
    });

export const listRoutes = (deps: Deps) =>
  new Elysia({ name: "list-routes", seed: deps.store.dir })
    .use(listOwnRoutes(deps))
    .use(listMemberRoutes(deps));
