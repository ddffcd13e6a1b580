// Public pages for browsers: / (the front page), and people and posts (API.md §14.1): /@username (profile), /@username.rss (its
// feed), /@username/:id (a post and its thread); browsers asking for an actor or a status by its
// ActivityPub URL (/users/…) are sent there. ActivityPub requests for the same people and posts never reach
// these routes: src/federation/route.ts hands them to Fedify first.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { localPublicAccount, publicFeed, publicProfile } from "../../domain/public-pages/profile.ts";
import { publicThread } from "../../domain/public-pages/thread.ts";
import { normaliseId, publicId } from "../../lib/ids.ts";
import { wantsActivityJson } from "../../federation/route.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { HTML, notFoundPage, pageResponse } from "./layout.ts";
import { profilePage } from "./profile-page.ts";
import { frontPage } from "../../domain/public-pages/front.ts";
import { frontPageHtml } from "./front-page.ts";
import { rssFeed } from "./rss.ts";
import { threadPage } from "./thread-page.ts";

const tags = ["pages"];
/** Mastodon's public pages may be cached briefly by anyone (a profile for 15 s, its feed for a minute). */
const PAGE_SECONDS = 15;
const FEED_SECONDS = 60;
const RSS = "application/rss+xml; charset=utf-8";

const Username = t.String({ description: "A local username; on the profile route, `username.rss` asks for the RSS feed" });
const Page = (description: string) => t.String({ description });
const NOT_FOUND = Page("text/html: no such local account or post, or not public");
const NOT_MODIFIED = Page("Not Modified: the If-None-Match ETag is current (no body)");

export const publicPageRoutes = (deps: Deps) => {
  const { config } = deps;
  const redirect = (location: string) => new Response(null, { status: 302, headers: { location, vary: "Accept" } });
  return new Elysia({ name: "public-page-routes" })
    .use(cachePlugin)
    .get("/", ({ request }) => pageResponse(request, frontPageHtml(config, frontPage(deps)), HTML), {
      publicCache: PAGE_SECONDS,
      response: { 200: Page("text/html: the front page (name, description, rules, how to join, recent public posts)"), 304: NOT_MODIFIED },
      detail: { summary: "The instance's front page (HTML)", tags },
    })
    .get(
      "/@:username",
      ({ params, query, request, set }) => {
        if (params.username.endsWith(".rss")) {
          set.headers["cache-control"] = `public, max-age=${FEED_SECONDS}`;
          const feed = publicFeed(deps, params.username.slice(0, -4));
          return feed ? pageResponse(request, rssFeed(config, feed), RSS) : notFoundPage(config, request);
        }
        const profile = publicProfile(deps, params.username, query.max_id);
        return profile ? pageResponse(request, profilePage(config, profile), HTML) : notFoundPage(config, request);
      },
      {
        params: t.Object({ username: Username }),
        query: t.Object({ max_id: t.Optional(t.String({ description: "Posts older than this id (the next page)" })) }),
        publicCache: PAGE_SECONDS,
        response: {
          200: Page("text/html: the profile with its public posts; application/rss+xml: the feed of `username.rss`"),
          304: NOT_MODIFIED,
          404: NOT_FOUND,
        },
        detail: { summary: "Public profile of a local account (HTML), or its RSS feed", tags },
      },
    )
    .get(
      "/@:username/:id",
      ({ params, request }) => {
        const thread = publicThread(deps, params.username, params.id);
        return thread ? pageResponse(request, threadPage(config, thread), HTML) : notFoundPage(config, request);
      },
      {
        params: t.Object({ username: Username, id: t.String({ description: "The post's id" }) }),
        publicCache: PAGE_SECONDS,
        response: { 200: Page("text/html: the post and its public thread"), 304: NOT_MODIFIED, 404: NOT_FOUND },
        detail: { summary: "Public page of a public or unlisted post (HTML)", tags },
      },
    )
    .get(
      "/users/:username",
      ({ params, request }) => {
        const account = wantsActivityJson(request) ? null : localPublicAccount(deps, params.username);
        return account ? redirect(`${config.url}/@${account.username}`) : notFoundPage(config, request);
      },
      {
        params: t.Object({ username: t.String() }),
        response: { 302: Page("Found: the profile page, for browsers"), 404: NOT_FOUND },
        detail: { summary: "An actor's URL opened in a browser: redirect to its profile page", tags },
      },
    )
    .get(
      "/users/:username/statuses/:id",
      ({ params, request }) => {
        const account = wantsActivityJson(request) ? null : localPublicAccount(deps, params.username);
        const id = normaliseId(params.id);
        return account && id ? redirect(`${config.url}/@${account.username}/${publicId(id)}`) : notFoundPage(config, request);
      },
      {
        params: t.Object({ username: t.String(), id: t.String() }),
        response: { 302: Page("Found: the post's page, for browsers"), 404: NOT_FOUND },
        detail: { summary: "A status's URL opened in a browser: redirect to its page", tags },
      },
    );
};
