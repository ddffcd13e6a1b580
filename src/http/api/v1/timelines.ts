// GET /api/v1/timelines/home, /public, /tag/:hashtag and /list/:id: Status[], 20 by default and at most 40,
// Link next (max_id) and prev (min_id) on every non-empty page, and past the last row examined when the
// read ran out of its row budget (SCAN_ROW_BUDGET) first. Public and hashtag timelines answer without a
// token where the feed settings allow it (domain/instance/feed-access.ts), and those anonymous answers may be
// cached by proxies for 15 s.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { findOwnList } from "../../../domain/lists/manage.ts";
import { listTimeline } from "../../../domain/lists/timeline.ts";
import type { Origin } from "../../../domain/timelines/policy.ts";
import { readableOrigin, type FeedReader } from "../../../domain/instance/feed-access.ts";
import { homeFeedEdge, homeTimeline, normaliseTag, publicTimeline, tagTimeline, TAGS_PER_MODE } from "../../../domain/timelines/read.ts";

import type { Viewer } from "../../../domain/auth/viewer.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { boundedPageQuery, type PagingParams } from "../../plugins/paging.ts";
import { ErrorBody, Flag, pagingQuery, toBool, type FlagValue } from "../../schemas.ts";
import { STATUS_LIST_LIMIT, StatusListSchema } from "./statuses/shared.ts";
import { cachedStatusList, keptPage, PageCache } from "../../cache/timeline-pages.ts";
import { keptAnswerHook, timelineRoute } from "../../metrics/instrument.ts";
import type { PageQuery } from "../../../model/paging.ts";

const origins = {
  local: t.Optional(Flag({ description: "Only statuses of local users" })),
  remote: t.Optional(Flag({ description: "Only statuses from other servers" })),
  only_media: t.Optional(Flag({ description: "Only statuses with media attachments" })),
};

const TagList = (description: string) => t.Optional(t.Union([t.String(), t.Array(t.String())], { description }));

const HomeQuery = t.Object({ ...pagingQuery, local: t.Optional(Flag({ description: "Accepted and repeated in Link; no effect" })) });
const PublicQuery = t.Object({ ...pagingQuery, ...origins });
const TagQuery = t.Object({
  ...pagingQuery,
  ...origins,
  any: TagList(`Also statuses with any of these tags (any[]=…, first ${TAGS_PER_MODE} used)`),
  all: TagList(`Only statuses that also have all of these tags (all[]=…, first ${TAGS_PER_MODE} used)`),
  none: TagList(`Leave out statuses with any of these tags (none[]=…, first ${TAGS_PER_MODE} used)`),
});

/** Mastodon: `local` alone = local only, `remote` alone = remote only, both or neither = everything. */
function originOf(query: { local?: FlagValue; remote?: FlagValue }): Origin {
  const local = toBool(query.local);
  const remote = toBool(query.remote);
  return local === remote ? "all" : local ? "local" : "remote";
}

function tagNames(value: string | string[] | undefined): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map(normaliseTag).filter(Boolean).slice(0, TAGS_PER_MODE);
}

const page = (query: PagingParams) => boundedPageQuery(query, STATUS_LIST_LIMIT);

/** Mastodon's require_user!: a user's token (an app's token reads as nobody). */
const readerOf = (viewer: Viewer | null | undefined): FeedReader => ({ signedIn: !!viewer?.user, role: viewer?.user?.role ?? null });

// The pages are sent as rendered UTF-8 JSON (timeline-pages.ts StatusListAnswer), checked where they are rendered.
const listResponse = { 200: StatusListSchema, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

export const timelineRoutes = (deps: Deps) => {
  const cache = new PageCache();
  return new Elysia({ name: "timeline-routes", seed: deps.store.dir })
    // Sent before routing, so no route records it: the hook does (src/http/metrics).
    .onRequest(keptAnswerHook((request, set) => keptPage(deps, cache, request, set), timelineRoute))
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/timelines/home",
      ({ viewer, query, request, set }) =>
        cachedStatusList(deps, cache, request, set, viewer, page(query), (p) => homeTimeline(deps.store, viewer.account.id, p), "home", homeFeedEdge(deps.store, viewer.account.id)),
      {
        auth: ["read:statuses"],
        query: HomeQuery,
        response: listResponse,
        detail: { summary: "Your statuses and those of the accounts you follow, newest first", tags: ["timelines"] },
      },
    )
    .get(
      "/api/v1/timelines/public",
      ({ viewer, query, request, set }) => {
        // The feed settings are read while the page is built, so that a kept page depends on them.
        const read = (p: PageQuery) => {
          const origin = readableOrigin(deps, "live", originOf(query), readerOf(viewer));
          return origin ? publicTimeline(deps.store, viewer?.account?.id ?? null, { origin, onlyMedia: toBool(query.only_media) }, p) : [];
        };
        return cachedStatusList(deps, cache, request, set, viewer, page(query), read, "public");
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        query: PublicQuery,
        response: listResponse,
        detail: { summary: "Public statuses (no reblogs, no replies to others); local= for local users only", tags: ["timelines"] },
      },
    )
    .get(
      "/api/v1/timelines/tag/:hashtag",
      ({ viewer, params, query, request, set }) => {
        const filter = {
          onlyMedia: toBool(query.only_media),
          anyOf: [normaliseTag(params.hashtag), ...tagNames(query.any)],
          allOf: tagNames(query.all),
          noneOf: tagNames(query.none),
        };
        const read = (p: PageQuery) => {
          const origin = readableOrigin(deps, "topic", originOf(query), readerOf(viewer));
          return origin ? tagTimeline(deps.store, viewer?.account?.id ?? null, { ...filter, origin }, p) : [];
        };
        return cachedStatusList(deps, cache, request, set, viewer, page(query), read, "public");
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        params: t.Object({ hashtag: t.String({ description: "The hashtag, without #" }) }),
        query: TagQuery,
        response: listResponse,
        detail: { summary: "Public statuses with a hashtag; an unknown hashtag gives []", tags: ["timelines"] },
      },
    )
    .get(
      "/api/v1/timelines/list/:id",
      ({ viewer, params, query, request, set }) => {
        const list = findOwnList(deps.store, viewer.account.id, params.id);
        return cachedStatusList(deps, cache, request, set, viewer, page(query), (p) => listTimeline(deps.store, list, p), "home");
      },
      {
        auth: ["read:lists"],
        params: t.Object({ id: t.String({ description: "List id" }) }),
        query: t.Object(pagingQuery),
        response: { ...listResponse, 404: ErrorBody },
        detail: { summary: "The statuses of one of your lists; other lists are 404", tags: ["timelines"] },
      },
    );
};
