// Trends (docs/trends.md): GET /api/v1/trends/tags, /statuses, /links; offset paging as Mastodon's (Link next
// while more may follow, prev after the first page). Public; signed-in viewers get their flags and filters.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import type { Viewer } from "../../../domain/auth/viewer.ts";
import {
  LINK_TIMELINE_LIMIT,
  linkTimeline,
  trendingLinks,
  trendingStatuses,
  trendingTags,
  TREND_LINKS_LIMIT,
  TREND_STATUSES_LIMIT,
  TREND_TAGS_LIMIT,
  type OffsetPage,
} from "../../../domain/trends/read.ts";
import { presentTag, TagSchema } from "../../../entities/tag.ts";
import { StatusSchema } from "../../../entities/status.ts";
import { presentTrendLink, TrendLinkSchema } from "../../../entities/trends.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { linkHeader, pageQuery, parseLimit } from "../../plugins/paging.ts";
import { statusesFor } from "../../present.ts";
import { ErrorBody, pagingQuery } from "../../schemas.ts";
import { BadRequest } from "../../../lib/errors.ts";

const OffsetQuery = t.Object({
  offset: t.Optional(t.String({ description: "Skip this many (default 0)" })),
  limit: t.Optional(t.String({ description: "How many; clamped to twice the default" })),
});
const errors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

function offsetPage(query: { offset?: string; limit?: string }, defaultLimit: number): OffsetPage {
  return { offset: Math.max(0, Number.parseInt(query.offset ?? "0", 10) || 0), limit: parseLimit(query.limit, defaultLimit) };
}

/** Mastodon's offset links: next when the page is full, prev when it did not start at 0. */
function offsetLinks(baseUrl: string, request: Request, page: OffsetPage, count: number): string | null {
  const url = new URL(request.url);
  const at = (offset: number) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("access_token");
    params.set("offset", String(offset));
    return `${baseUrl}${url.pathname}?${params.toString()}`;
  };
  const links: string[] = [];
  if (count > 0 && count >= page.limit) links.push(`<${at(page.offset + page.limit)}>; rel="next"`);
  if (page.offset > 0) links.push(`<${at(Math.max(0, page.offset - page.limit))}>; rel="prev"`);
  return links.length ? links.join(", ") : null;
}

/** Trends change every 10 minutes (the refresh job): visitors' answers may be cached a minute. */
const TRENDS_CACHE_SECONDS = 60;

export const trendRoutes = (deps: Deps) => {
  const tags = {
    handler: ({ viewer, query, request, set }: { viewer: Viewer | null; query: { offset?: string; limit?: string }; request: Request; set: { headers: Record<string, unknown> } }) => {
      const page = offsetPage(query, TREND_TAGS_LIMIT);
      const loaded = trendingTags(deps, viewer?.account?.id ?? null, page);
      const link = offsetLinks(deps.config.url, request, page, loaded.length);
      if (link) set.headers["link"] = link;
      return loaded.map((tag) => presentTag(deps.config, tag.name, tag.history, tag.flags));
    },
    options: (summary: string) => ({
      maybeAuth: ["read"],
      publicCache: TRENDS_CACHE_SECONDS,
      query: OffsetQuery,
      response: { 200: t.Array(TagSchema), ...errors },
      detail: { summary, tags: ["trends"] },
    }),
  };
  return new Elysia({ name: "trend-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/trends/tags", tags.handler, tags.options("Hashtags used by more accounts than usual, with their week of history"))
    .get("/api/v1/trends", tags.handler, tags.options("The trending hashtags (Mastodon's older path of /api/v1/trends/tags)"))
    .get(
      "/api/v1/trends/statuses",
      ({ viewer, query, request, set }) => {
        const page = offsetPage(query, TREND_STATUSES_LIMIT);
        const statuses = trendingStatuses(deps, viewer?.account?.id ?? null, page);
        const link = offsetLinks(deps.config.url, request, page, statuses.length);
        if (link) set.headers["link"] = link;
        return statusesFor(deps, viewer ?? null, statuses, "public");
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: TRENDS_CACHE_SECONDS,
        query: OffsetQuery,
        response: { 200: t.Array(StatusSchema), ...errors },
        detail: { summary: "Public statuses reblogged and favourited much lately", tags: ["trends"] },
      },
    )
    .get(
      "/api/v1/trends/links",
      ({ viewer, query, request, set }) => {
        const page = offsetPage(query, TREND_LINKS_LIMIT);
        const links = trendingLinks(deps, page);
        const link = offsetLinks(deps.config.url, request, page, links.length);
        if (link) set.headers["link"] = link;
        return links.map((l) => presentTrendLink(deps.config, l, !!viewer));
      },
      {
        maybeAuth: ["read"],
        publicCache: TRENDS_CACHE_SECONDS,
        query: OffsetQuery,
        response: { 200: t.Array(TrendLinkSchema), ...errors },
        detail: { summary: "Links many accounts shared lately, as preview cards with their week of history", tags: ["trends"] },
      },
    )
    .get(
      "/api/v1/timelines/link",
      ({ viewer, query, request, set }) => {
        if (!query.url) throw new BadRequest("param is missing or the value is empty: url");
        const statuses = linkTimeline(deps, viewer?.account?.id ?? null, query.url, pageQuery(query, LINK_TIMELINE_LIMIT));
        const link = linkHeader({ baseUrl: deps.config.url, request, first: statuses[0]?.id, last: statuses.at(-1)?.id, next: true, prevParam: "min_id" });
        if (link) set.headers["link"] = link;
        return statusesFor(deps, viewer ?? null, statuses, "public");
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: TRENDS_CACHE_SECONDS,
        query: t.Object({ url: t.Optional(t.String({ maxLength: 2048, description: "The trending link" })), ...pagingQuery }),
        response: { 200: t.Array(StatusSchema), 400: ErrorBody, 404: ErrorBody, ...errors },
        detail: { summary: "Public statuses that shared a trending link, newest first", tags: ["trends", "timelines"] },
      },
    );
};
