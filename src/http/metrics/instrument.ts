// Per-request instrumentation: the arrival time is noted on the request's context as the first hook runs,
// and once the answer is sent its route pattern, status and duration go into the HTTP metrics
// (lib/metrics/http.ts). Answers given before routing (ActivityPub requests answered by Fedify, requests
// refused by a throttle) have no Elysia route: they are recorded by the code that answers them, the
// former under their ActivityPub path pattern.
import { Elysia, StatusMap } from "elysia";
import { countRequest, observeRequest } from "../../lib/metrics/http.ts";

const ARRIVED = Symbol("warren.arrived");
/** The route of a request no route matched (a 404 from the router). */
export const UNMATCHED_ROUTE = "(unmatched)";
export const THROTTLED_ROUTE = "(throttled)";

type Timed = { [ARRIVED]?: number };

/**
 * The status sent: a returned Response's, else the one set (the error plugin's answers set it too), except
 * for a path no route matched, where Elysia leaves 200 set and its NOT_FOUND error carries the 404.
 */
export function statusOf(set: { status?: number | string }, answer: unknown, error: unknown): number {
  if (answer instanceof Response) return answer.status;
  const raw = set.status ?? 200;
  const status = typeof raw === "number" ? raw : ((StatusMap as Record<string, number>)[raw] ?? 200);
  const failed = (error as { status?: unknown } | undefined)?.status;
  return status === 200 && typeof failed === "number" ? failed : status;
}

const secondsSince = (arrived: number | undefined) => (performance.now() - (arrived ?? performance.now())) / 1000;

// Hooks here and below never hand their whole context to a function: Elysia's Sucrose reads each hook's source,
// and one that does is taken to read everything, so that every route then parses cookies, copies the headers
// and parses the query of every request (tests/http/request-cost.test.ts keeps it so).
export const requestMetricsPlugin = new Elysia({ name: "warren-request-metrics" })
  .onRequest((context) => {
    (context as Timed)[ARRIVED] = performance.now();
  })
  .onAfterResponse({ as: "global" }, (context) => {
    const { route, set, responseValue, error } = context as typeof context & { responseValue?: unknown; error?: unknown };
    observeRequest(route || UNMATCHED_ROUTE, statusOf(set, responseValue, error), secondsSince((context as Timed)[ARRIVED]));
  });

/** The bounded pattern of an ActivityPub path (src/federation/route.ts admits only actor-shaped paths). */
export function activityPubRoute(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  const path = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
  return (
    path
      .replace(/^\/users\/[^/]+/, "/users/:username")
      .replace(/^\/@[^/]+/, "/@:username")
      .replace(/\/\d+(?=\/|$)/g, "/:id")
      .replace(/(.)\/$/, "$1")
  );
}

/**
 * The onRequest hook of an answer given before routing, when `answer` gives one (Fedify's, for ActivityPub
 * requests): recorded under its ActivityPub path pattern; the request goes on to Elysia otherwise. A refusal
 * given at once (a Response, not a promise: an IP block's) is not recorded, as other requests it refuses.
 */
export function answeredEarly(answer: (request: Request) => Promise<Response | undefined> | Response | undefined) {
  return (context: { request: Request }) => {
    const { request } = context;
    const early = answer(request);
    if (!early || early instanceof Response) return early;
    const arrived = (context as Timed)[ARRIVED];
    return early.then((response) => {
      if (response) observeRequest(activityPubRoute(request.url), response.status, secondsSince(arrived));
      return response;
    });
  };
}

/** The route pattern of a timeline path (a kept page is sent before routing: timeline-pages.ts). */
export function timelineRoute(url: string): string {
  const start = url.indexOf("/api/");
  const end = url.indexOf("?", start);
  const path = url.slice(start, end < 0 ? undefined : end);
  return path.replace(/^(\/api\/v1\/timelines\/tag\/)[^/]+/, "$1:hashtag").replace(/^(\/api\/v1\/timelines\/list\/)[^/]+/, "$1:id");
}

type Setter = { headers: Record<string, unknown> };

/**
 * The onRequest hook of a cache that answers before routing (a kept timeline page or thread): what it sends
 * is recorded under `routeOf(url)` with a 200, as no route records it.
 */
export function keptAnswerHook<T>(kept: (request: Request, set: Setter) => T | undefined, routeOf: (url: string) => string) {
  return (context: { request: Request; set: Setter }) => {
    const { request, set } = context;
    const body = kept(request, set);
    if (body !== undefined) observeRequest(routeOf(request.url), 200, secondsSince((context as Timed)[ARRIVED]));
    return body;
  };
}

/** A request a throttle refused before routing (its duration is not measured: it did no work). */
export function countThrottled(): void {
  countRequest(THROTTLED_ROUTE, 429);
}
