// Mastodon's rate limits (API.md §11; the table is rate-limits/table.ts). Request throttles are counted as a
// request arrives, before its body is read; sign-in throttles once the body names the login. Every response
// a throttle matched (every /api response) carries X-RateLimit-Limit/Remaining/Reset for the matched limit
// with the fewest requests left; an exceeded one answers 429 {"error":"Too many requests"} with Retry-After.
// WARREN_RATE_LIMITS=off leaves the plugin empty; WARREN_RATE_LIMIT_FACTOR multiplies every limit.
import { requestLocale } from "../i18n/locale.ts";
import { translateMessage } from "../i18n/translate.ts";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Deps } from "../../deps.ts";
import { viewerFromToken } from "../../domain/auth/viewer.ts";
import { findSession } from "../../domain/auth/web-sessions.ts";
import { signInSubject } from "../../domain/oauth/sign-in.ts";
import { SESSION_COOKIE } from "../auth/browser.ts";
import { readCookie } from "../oauth/request.ts";
import { bearerToken } from "./auth.ts";
import { clientBucket, trustedRanges } from "./rate-limits/client-ip.ts";
import { MAIL_THROTTLES, REQUEST_THROTTLES, SIGN_IN_THROTTLES, type RequestFacts, type Throttle } from "./rate-limits/table.ts";
import { FixedWindows, type Count } from "./rate-limits/windows.ts";
import { pathAndQuery } from "../url.ts";
import { countThrottled } from "../metrics/instrument.ts";
import { clusterLink } from "../../cluster/link.ts";

type Headers = Record<string, string | number>;

const PAGING = /(?:^|&)(?:max_id|min_id|since_id|page)=[^&]/;

function describe(headers: Headers, count: Count): void {
  headers["x-ratelimit-limit"] = String(count.limit);
  headers["x-ratelimit-remaining"] = String(count.remaining);
  headers["x-ratelimit-reset"] = count.resetText;
}

function tooManyRequests(headers: Headers, count: Count, now: number, request: Request): Response {
  describe(headers, count);
  headers["retry-after"] = String(Math.max(1, Math.ceil((count.resetAt - now) / 1000)));
  // The people-facing pages (docs/web.md) get a page, not JSON.
  const path = pathAndQuery(request.url)[0];
  if (path.startsWith("/auth/") || path.startsWith("/settings/")) {
    const page = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head><body><main><h1>Too many requests</h1><p>Please wait a few minutes, then try again.</p></main></body></html>';
    return new Response(page, { status: 429, headers: { ...(headers as Record<string, string>), "content-type": "text/html; charset=utf-8" } });
  }
  return new Response(JSON.stringify({ error: translateMessage("Too many requests", requestLocale(request)) }), {
    status: 429,
    headers: { ...(headers as Record<string, string>), "content-type": "application/json; charset=utf-8" },
  });
}

/** A string field of a parsed form or JSON body, read as an own property only. */
function field(body: unknown, name: string): string | null {
  if (!body || typeof body !== "object" || !Object.hasOwn(body, name)) return null;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

/** The login of a password sign-in: the password grant, the sign-in form of the authorization page or /auth/sign_in. */
function signInLogin(method: string, path: string, body: unknown): string | null {
  if (method !== "POST") return null;
  if (path === "/oauth/token") return field(body, "grant_type") === "password" ? (field(body, "username") ?? "") : null;
  if (path === "/oauth/authorize" || path === "/auth/sign_in") {
    const username = field(body, "username");
    return username || field(body, "password") ? (username ?? "") : null;
  }
  return null;
}

/**
 * The settings forms that check the current password (docs/web.md). Each POST is a password guess as much as a
 * sign-in is: it counts against the sign-in allowances of the address and of the signed-in account.
 */
const PASSWORD_FORMS = new Set(["/settings/email", "/settings/password", "/settings/delete", "/settings/migration"]);

/** The address a form that sends mail names (password reset, confirmation resend), as the throttles count it. */
function mailFormAddress(method: string, path: string, body: unknown): string | null {
  if (method !== "POST" || (path !== "/auth/password/new" && path !== "/auth/confirmation/new")) return null;
  return (field(body, "email") ?? "").trim().toLowerCase();
}

/** `serverOf`: the app's server (null in process), as in ip-blocks.ts. */
export function rateLimitsPlugin(deps: Deps, serverOf: () => Server | null) {
  const plugin = new Elysia({ name: "warren-rate-limits", seed: deps.store.dir });
  if (!deps.config.rateLimits) return plugin;
  // Several server processes spend one budget, shared through their supervisor (src/cluster/rate-counts.ts).
  const windows = clusterLink()?.rateWindows(deps.config.rateLimitFactor) ?? new FixedWindows(deps.config.rateLimitFactor);
  const proxies = trustedRanges(deps.config.trustedProxies);

  const clientOf = (request: Request) => {
    const server = serverOf();
    return clientBucket(server ? (server.requestIP(request)?.address ?? null) : null, request.headers.get("x-forwarded-for"), proxies);
  };

  /** Counts the request against each throttle that applies, in order; a 429 Response at the first exceeded. */
  async function apply<Facts>(throttles: Throttle<Facts>[], facts: Facts, headers: Headers, request: Request): Promise<Response | undefined> {
    const now = Date.now();
    let fewest = Number(headers["x-ratelimit-remaining"] ?? Infinity);
    for (const throttle of throttles) {
      const key = throttle.key(facts);
      if (key === null) continue;
      const count = await windows.hit(throttle, key, now);
      if (count.exceeded) return tooManyRequests(headers, count, now, request);
      if (count.remaining < fewest) {
        fewest = count.remaining;
        describe(headers, count);
      }
    }
  }

  return plugin
    .onRequest(({ request, set }) => {
      const [path, query] = pathAndQuery(request.url);
      const token = bearerToken(request);
      const viewer = token ? viewerFromToken(deps.store, token) : null;
      let ip: string | undefined;
      const facts: RequestFacts = {
        method: request.method,
        path,
        paging: PAGING.test(query),
        ip: () => (ip ??= clientOf(request)),
        tokenId: viewer?.token.id ?? null,
        userId: viewer?.account?.id ?? null,
      };
      // Refused before routing: no route records it (src/http/metrics/instrument.ts).
      return apply(REQUEST_THROTTLES, facts, set.headers as Headers, request).then((refused) => {
        if (refused) countThrottled();
        return refused;
      });
    })
    .onBeforeHandle({ as: "global" }, ({ request, body, set }) => {
      const [path] = pathAndQuery(request.url);
      const email = mailFormAddress(request.method, path, body);
      if (email !== null) return apply(MAIL_THROTTLES, { path, email }, set.headers as Headers, request);
      if (request.method === "POST" && PASSWORD_FORMS.has(path)) {
        // Without a live session the form checks no password (it sends the browser to sign in): the address counts alone.
        const subject = findSession(deps.store, readCookie(request, SESSION_COOKIE))?.account.id ?? null;
        return apply(SIGN_IN_THROTTLES, { ip: clientOf(request), subject }, set.headers as Headers, request);
      }
      const login = signInLogin(request.method, path, body);
      if (login === null) return;
      const facts = { ip: clientOf(request), subject: signInSubject(deps.store, login) };
      return apply(SIGN_IN_THROTTLES, facts, set.headers as Headers, request);
    });
}
