// GET /.well-known/webfinger (local accounts) and GET /.well-known/host-meta (XML, or JSON with ?format=json,
// an Accept asking for JSON, or /.well-known/host-meta.json), API.md §13.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { webfingerAccount } from "../../domain/instance/webfinger.ts";
import { HostMetaJsonSchema, JrdSchema, presentHostMetaJson, presentHostMetaXml, presentWebfinger } from "../../entities/webfinger.ts";
import { ErrorBody } from "../schemas.ts";
import { cachePlugin } from "../plugins/cache.ts";

const tags = ["well-known"];
/** Answers are cached for 3 days, errors for 3 minutes (as Mastodon). */
const FOUND_CACHE = "public, max-age=259200";
const ERROR_CACHE = "public, max-age=180";
const HOST_META_CACHE = "public, max-age=259200";

function wantsJson(format: string | undefined, accept: string | null): boolean {
  if (format) return format === "json";
  return !!accept && /json/i.test(accept) && !/xrd\+xml/i.test(accept);
}

function hostMeta(deps: Deps, json: boolean): Response {
  const headers = { "cache-control": HOST_META_CACHE, vary: "Accept, Authorization" };
  if (json) return Response.json(presentHostMetaJson(deps.config), { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  return new Response(presentHostMetaXml(deps.config), { headers: { ...headers, "content-type": "application/xrd+xml; charset=utf-8" } });
}

export const webfingerRoutes = (deps: Deps) =>
  new Elysia({ name: "webfinger-routes" })
    .use(cachePlugin)
    .get(
      "/.well-known/webfinger",
      ({ query, set }) => {
        set.headers["cache-control"] = ERROR_CACHE;
        const account = webfingerAccount(deps, query.resource);
        set.headers["cache-control"] = FOUND_CACHE;
        set.headers["content-type"] = "application/jrd+json; charset=utf-8";
        return presentWebfinger(deps.config, account);
      },
      {
        query: t.Object({
          resource: t.Optional(t.String({ description: "acct:user@domain, user@domain, or the actor or profile URL" })),
        }),
        response: { 200: JrdSchema, 400: ErrorBody, 404: ErrorBody },
        detail: { summary: "WebFinger: the actor and profile of a local account", tags },
      },
    )
    .get("/.well-known/host-meta", ({ query, request }) => hostMeta(deps, wantsJson(query.format, request.headers.get("accept"))), {
      query: t.Object({ format: t.Optional(t.String({ description: "json for the JSON variant; XML otherwise" })) }),
      response: { 200: t.Union([t.String({ description: "XRD document" }), HostMetaJsonSchema]) },
      detail: { summary: "host-meta: where WebFinger is (XRD, or JSON on request)", tags },
    })
    .get("/.well-known/host-meta.json", () => hostMeta(deps, true), {
      response: { 200: HostMetaJsonSchema },
      detail: { summary: "host-meta, JSON variant", tags },
    });
