// Which requests Fedify answers, decided before Elysia routes anything (src/app.ts): POSTs to an inbox, and
// GETs of an actor or its collections that ask for ActivityPub JSON (Accept: application/activity+json or
// application/ld+json). Everything else, browsers asking for the same URLs included, goes on to Elysia as
// before. WebFinger and NodeInfo are ours (src/http/wellknown) and never come here.
import type { FederationDeps } from "./index.ts";

const ACTOR_PATH = /^\/users\/[^/]+(?:\/(?:inbox|outbox|followers|following))?\/?$/;
const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/;
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

/** Whether Fedify should see the request; cheap, so every request may ask. */
export function isFederationRequest(request: Request, pathname: string): boolean {
  if (request.method === "POST") return INBOX_PATH.test(pathname);
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  return ACTIVITY_JSON.test(request.headers.get("accept") ?? "") && ACTOR_PATH.test(pathname);
}

const NOT_OURS = new Response(null, { status: 404 });

/** Fedify's answer, or undefined when the request is not one for it (Elysia answers it then). */
export function federationResponse(deps: FederationDeps, request: Request): Promise<Response | undefined> | undefined {
  const start = request.url.indexOf("/", request.url.indexOf("//") + 2);
  const end = request.url.indexOf("?", start);
  const pathname = start < 0 ? "/" : request.url.slice(start, end < 0 ? undefined : end);
  if (!isFederationRequest(request, pathname)) return undefined;
  return (async () => {
    const { federationFor } = await import("./index.ts");
    const { refusalResponse } = await import("./authorized-fetch.ts");
    const response = await federationFor(deps).federation.fetch(request, {
      contextData: undefined,
      onNotFound: () => NOT_OURS,
      onNotAcceptable: () => NOT_OURS,
      // Refused by WARREN_AUTHORIZED_FETCH (authorized-fetch.ts): 401, 403 or 404 as the predicate decided.
      onUnauthorized: refusalResponse,
    });
    if (response === NOT_OURS) return undefined;
    // In secure mode what a GET gets depends on its signature: caches must keep the answers apart.
    if (deps.config.authorizedFetch && !response.headers.get("vary")?.includes("Signature")) response.headers.append("vary", "Signature");
    return response;
  })();
}
