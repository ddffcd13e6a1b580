// Filters v1 (GET/POST /api/v1/filters, GET/PUT/DELETE /api/v1/filters/:id): the keywords of your v2 filters
// in Mastodon's v1 shape (domain/filters/v1.ts). Only your own filters exist for you: any other id is 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { createV1Filter, deleteV1Filter, findV1Filter, updateV1Filter, v1Filters, type V1FilterInput } from "../../../domain/filters/v1.ts";
import { presentV1Filter, V1FilterSchema } from "../../../entities/filter-v1.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody, Flag, toBool, type FlagValue } from "../../schemas.ts";
import { ContextParam } from "../v2/filters.ts";

const READ = ["read:filters"];
const WRITE = ["write:filters"];
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const tags = ["filters"];

const V1FilterBody = t.Object({
  phrase: t.Optional(t.String({ description: "The keyword (required when creating); also the filter's title" })),
  context: t.Optional(ContextParam),
  irreversible: t.Optional(Flag({ description: "Hide matching statuses instead of warning (the v2 hide action)" })),
  whole_word: t.Optional(Flag({ description: "Only whole words match (default true)" })),
  expires_in: t.Optional(t.String({ description: "Seconds until it stops applying; blank: never" })),
});

const IdParams = t.Object({ id: t.String({ description: "The v1 filter's (the keyword's) id" }) });

const optionalBool = (value: FlagValue | undefined) => (value === undefined || value === "" ? undefined : toBool(value));

function input(body: typeof V1FilterBody.static | null | undefined): V1FilterInput {
  return {
    phrase: body?.phrase,
    context: body?.context,
    irreversible: optionalBool(body?.irreversible),
    wholeWord: optionalBool(body?.whole_word),
    expiresIn: body?.expires_in,
  };
}

export const filterV1Routes = (deps: Deps) =>
  new Elysia({ name: "filter-v1-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/filters", ({ viewer }) => v1Filters(deps.store, viewer.account.id).map(presentV1Filter), {
      auth: READ,
      response: { 200: t.Array(V1FilterSchema), ...errors },
      detail: { summary: "Your filters' keywords, each as a v1 filter", tags },
    })
    .post("/api/v1/filters", async ({ viewer, body }) => presentV1Filter(await createV1Filter(deps, viewer.account.id, input(body))), {
      auth: WRITE,
      body: V1FilterBody,
      response: { 200: V1FilterSchema, ...errors },
      detail: { summary: "Create a filter with one keyword", tags },
    })
    .get("/api/v1/filters/:id", ({ viewer, params }) => presentV1Filter(findV1Filter(deps.store, viewer.account.id, params.id)), {
      auth: READ,
      params: IdParams,
      response: { 200: V1FilterSchema, ...errors },
      detail: { summary: "One v1 filter", tags },
    })
    .put("/api/v1/filters/:id", async ({ viewer, params, body }) => presentV1Filter(await updateV1Filter(deps, viewer.account.id, params.id, input(body))), {
      auth: WRITE,
      params: IdParams,
      body: V1FilterBody,
      response: { 200: V1FilterSchema, ...errors },
      detail: { summary: "Change the keyword, and its filter when that has no other keyword", tags },
    })
    .delete(
      "/api/v1/filters/:id",
      async ({ viewer, params }) => {
        await deleteV1Filter(deps, viewer.account.id, params.id);
        return {};
      },
      { auth: WRITE, params: IdParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Remove the keyword (its filter stays)", tags } },
    );
