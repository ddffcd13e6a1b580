// Filters v2 (API.md §7.3): GET/POST /api/v2/filters, GET/PUT/DELETE /api/v2/filters/:id, a filter's keywords
// (GET/POST /api/v2/filters/:id/keywords, GET/PUT/DELETE /api/v2/filters/keywords/:id) and statuses
// (GET/POST /api/v2/filters/:id/statuses, GET/DELETE /api/v2/filters/statuses/:id); the keyword and status
// paths are also served as /api/v2/filter_keywords/:id and /api/v2/filter_statuses/:id. Mastodon names the
// filter `:filter_id` in the nested paths; our router needs one name per position, so it is `:id` here.
// Only your own filters exist for you: any other id is 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import {
  addFilterStatus, addKeyword, deleteFilterStatus, deleteKeyword, filterKeywords, filterStatuses, findOwnFilterStatus, findOwnKeyword, updateKeyword,
  type KeywordInput,
} from "../../../domain/filters/items.ts";
import { FILTER_LIMITS } from "../../../domain/filters/input.ts";
import { createFilter, deleteFilter, findOwnFilter, ownFilters, updateFilter, type FilterInput, type KeywordAttributes } from "../../../domain/filters/manage.ts";
import {
  FilterKeywordSchema, FilterSchema, FilterStatusSchema, presentFilter, presentFilterKeyword, presentFilterStatus,
} from "../../../entities/filter.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody, Flag, toBool, type FlagValue } from "../../schemas.ts";

const READ = ["read:filters"];
const WRITE = ["write:filters"];
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

const KeywordAttributesSchema = t.Object({
  id: t.Optional(t.String({ description: "PUT: the keyword to change or remove" })),
  keyword: t.Optional(t.String({ description: `At most ${FILTER_LIMITS.maxKeywordLength} characters` })),
  whole_word: t.Optional(Flag({ description: "Only whole words match (default true)" })),
  _destroy: t.Optional(Flag({ description: "PUT: remove the keyword with this id" })),
});

export const ContextParam = t.Union([t.String(), t.Array(t.String())], {
  description: "context[]=…: home, notifications, public, thread, account (at least one)",
});

const FilterBody = t.Object({
  title: t.Optional(t.String({ description: `Required when creating; at most ${FILTER_LIMITS.maxTitleLength} characters` })),
  context: t.Optional(ContextParam),
  filter_action: t.Optional(t.String({ description: "warn (default), hide or blur" })),
  expires_in: t.Optional(t.String({ description: "Seconds until it stops applying; blank: never" })),
  keywords_attributes: t.Optional(
    t.Union([t.Array(KeywordAttributesSchema), t.Record(t.String(), KeywordAttributesSchema)], {
      description: "keywords_attributes[][keyword], [whole_word]; on PUT also [id] and [_destroy]",
    }),
  ),
});

const KeywordBody = t.Object({
  keyword: t.Optional(t.String({ description: `Required when adding; at most ${FILTER_LIMITS.maxKeywordLength} characters` })),
  whole_word: t.Optional(Flag({ description: "Only whole words match (default true)" })),
});

const StatusBody = t.Object({ status_id: t.Optional(t.String({ description: "A status you can see" })) });

const FilterIdParams = t.Object({ id: t.String({ description: "Filter id" }) });
const KeywordIdParams = t.Object({ id: t.String({ description: "Keyword id" }) });
const StatusIdParams = t.Object({ id: t.String({ description: "Filter status id" }) });

type KeywordAttributesBody = typeof KeywordAttributesSchema.static;

const optionalBool = (value: FlagValue | undefined) => (value === undefined || value === "" ? undefined : toBool(value));

/** Rails' nested attributes: an entry whose every value (but _destroy) is blank is ignored. */
function keywordAttributes(raw: KeywordAttributesBody[] | Record<string, KeywordAttributesBody> | undefined): KeywordAttributes[] | undefined {
  if (raw === undefined) return undefined;
  const entries = Array.isArray(raw) ? raw : Object.keys(raw).sort((a, b) => Number(a) - Number(b)).map((k) => raw[k]!);
  const blank = (v: unknown) => v === undefined || v === false || (typeof v === "string" && v.trim() === "");
  return entries
    .filter((e) => !(blank(e.id) && blank(e.keyword) && blank(e.whole_word)))
    .map((e) => ({ id: e.id, keyword: e.keyword, wholeWord: optionalBool(e.whole_word), destroy: toBool(e._destroy) }));
}

function filterInput(body: typeof FilterBody.static | null | undefined): FilterInput {
  return {
    title: body?.title,
    context: body?.context,
    action: body?.filter_action,
    expiresIn: body?.expires_in,
    keywords: keywordAttributes(body?.keywords_attributes),
  };
}

function keywordInput(body: typeof KeywordBody.static | null | undefined): KeywordInput {
  return { keyword: body?.keyword, wholeWord: optionalBool(body?.whole_word) };
}

const tags = ["filters"];

/** The keyword and status-entry routes, under both of their paths. */
function itemRoutes(deps: Deps, keywordsPath: string, statusesPath: string) {
  return new Elysia({ name: `filter-item-routes:${keywordsPath}`, seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(`${keywordsPath}/:id`, ({ viewer, params }) => presentFilterKeyword(findOwnKeyword(deps.store, viewer.account.id, params.id).keyword), {
      auth: READ,
      params: KeywordIdParams,
      response: { 200: FilterKeywordSchema, ...errors },
      detail: { summary: "One keyword of your filters", tags },
    })
    .put(
      `${keywordsPath}/:id`,
      async ({ viewer, params, body }) => presentFilterKeyword(await updateKeyword(deps, viewer.account.id, params.id, keywordInput(body))),
      {
        auth: WRITE,
        params: KeywordIdParams,
        body: KeywordBody,
        response: { 200: FilterKeywordSchema, ...errors },
        detail: { summary: "Change a keyword or its whole_word", tags },
      },
    )
    .delete(
      `${keywordsPath}/:id`,
      async ({ viewer, params }) => {
        await deleteKeyword(deps, viewer.account.id, params.id);
        return {};
      },
      { auth: WRITE, params: KeywordIdParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Remove a keyword from its filter", tags } },
    )
    .get(`${statusesPath}/:id`, ({ viewer, params }) => presentFilterStatus(findOwnFilterStatus(deps.store, viewer.account.id, params.id).entry), {
      auth: READ,
      params: StatusIdParams,
      response: { 200: FilterStatusSchema, ...errors },
      detail: { summary: "One status entry of your filters", tags },
    })
    .delete(
      `${statusesPath}/:id`,
      async ({ viewer, params }) => {
        await deleteFilterStatus(deps, viewer.account.id, params.id);
        return {};
      },
      { auth: WRITE, params: StatusIdParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Remove a status from its filter", tags } },
    );
}

export const filterV2Routes = (deps: Deps) =>
  new Elysia({ name: "filter-v2-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .use(itemRoutes(deps, "/api/v2/filters/keywords", "/api/v2/filters/statuses"))
    .use(itemRoutes(deps, "/api/v2/filter_keywords", "/api/v2/filter_statuses"))
    .get("/api/v2/filters", ({ viewer }) => ownFilters(deps.store, viewer.account.id).map(presentFilter), {
      auth: READ,
      response: { 200: t.Array(FilterSchema), ...errors },
      detail: { summary: "Your filters (expired ones too), with their keywords and statuses", tags },
    })
    .post("/api/v2/filters", async ({ viewer, body }) => presentFilter(await createFilter(deps, viewer.account.id, filterInput(body))), {
      auth: WRITE,
      body: FilterBody,
      response: { 200: FilterSchema, ...errors },
      detail: { summary: `Create a filter (at most ${FILTER_LIMITS.maxFiltersPerAccount})`, tags },
    })
    .get("/api/v2/filters/:id", ({ viewer, params }) => presentFilter(findOwnFilter(deps.store, viewer.account.id, params.id)), {
      auth: READ,
      params: FilterIdParams,
      response: { 200: FilterSchema, ...errors },
      detail: { summary: "One of your filters", tags },
    })
    .put("/api/v2/filters/:id", async ({ viewer, params, body }) => presentFilter(await updateFilter(deps, viewer.account.id, params.id, filterInput(body))), {
      auth: WRITE,
      params: FilterIdParams,
      body: FilterBody,
      response: { 200: FilterSchema, ...errors },
      detail: { summary: "Change a filter; keywords_attributes adds, changes ([id]) or removes ([id] with [_destroy]) keywords", tags },
    })
    .delete(
      "/api/v2/filters/:id",
      async ({ viewer, params }) => {
        await deleteFilter(deps, viewer.account.id, params.id);
        return {};
      },
      { auth: WRITE, params: FilterIdParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Delete a filter", tags } },
    )
    .get("/api/v2/filters/:id/keywords", ({ viewer, params }) => filterKeywords(deps.store, viewer.account.id, params.id).map(presentFilterKeyword), {
      auth: READ,
      params: FilterIdParams,
      response: { 200: t.Array(FilterKeywordSchema), ...errors },
      detail: { summary: "A filter's keywords", tags },
    })
    .post(
      "/api/v2/filters/:id/keywords",
      async ({ viewer, params, body }) => presentFilterKeyword(await addKeyword(deps, viewer.account.id, params.id, keywordInput(body))),
      {
        auth: WRITE,
        params: FilterIdParams,
        body: KeywordBody,
        response: { 200: FilterKeywordSchema, ...errors },
        detail: { summary: `Add a keyword to a filter (at most ${FILTER_LIMITS.maxKeywordsPerAccount} in all your filters)`, tags },
      },
    )
    .get("/api/v2/filters/:id/statuses", ({ viewer, params }) => filterStatuses(deps.store, viewer.account.id, params.id).map(presentFilterStatus), {
      auth: READ,
      params: FilterIdParams,
      response: { 200: t.Array(FilterStatusSchema), ...errors },
      detail: { summary: "A filter's statuses", tags },
    })
    .post(
      "/api/v2/filters/:id/statuses",
      async ({ viewer, params, body }) => presentFilterStatus(await addFilterStatus(deps, viewer.account.id, params.id, body?.status_id)),
      {
        auth: WRITE,
        params: FilterIdParams,
        body: StatusBody,
        response: { 200: FilterStatusSchema, ...errors },
        detail: { summary: `Add a status you can see to a filter (once; at most ${FILTER_LIMITS.maxStatusesPerAccount} in all your filters)`, tags },
      },
    );
