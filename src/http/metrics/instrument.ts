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

const secondsSince = (context: Timed) => (performance.now() - (context[ARRIVED] ?? performance.now())) / 1000;

export const requestMetricsPlugin = new Elysia({ name: "warren-request-metrics" })
  .onRequest((context) => {
    (context as Timed)[ARRIVED] = performance.now();
  })
  .onAfterResponse({ as: "global" }, (context) => {
    const { route, set, responseValue, error } = context as typeof context & { responseValue?: unknown; error?: unknown };
    observeRequest(route || UNMATCHED_ROUTE, statusOf(set, responseValue, error), secondsSince(context as Timed));
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

/** Records Fedify's answer (when it gives one) as the request's; the request goes on to Elysia otherwise. */
export function recordedEarly(
  context: { request: Request },
  answer: Promise<Response | undefined> | undefined,
): Promise<Response | undefined> | undefined {
  if (!answer) return undefined;
  return answer.then((response) => {
    if (response) observeRequest(activityPubRoute(context.request.url), response.status, secondsSince(context as Timed));
    return response;
  });
}

/** The route pattern of a timeline path (a kept page is sent before routing: timeline-pages.ts). */
export function timelineRoute(url: string): string {
  const start = url.indexOf("/api/");
  const end = url.indexOf("?", start);
  const path = url.slice(start, end < 0 ? undefined : end);
  return path.replace(/^(\/api\/v1\/timelines\/tag\/)[^/]+/, "$1:hashtag").replace(/^(\/api\/v1\/timelines\/list\/)[^/]+/, "$1:id");
}

/** A kept answer sent before routing, recorded under `route` with a 200. */
export function recordKept(context: object, route: string): void {
  observeRequest(route, 200, secondsSince(context as Timed));
}

/** A request a throttle refused before routing (its duration is not measured: it did no work). */
export function countThrottled(): void {
  countRequest(THROTTLED_ROUTE, 429);
}
