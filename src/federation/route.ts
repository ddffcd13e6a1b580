// Which requests Fedify answers, decided before Elysia routes anything (src/app.ts): POSTs to an inbox, and
// GETs of an actor or its collections that ask for ActivityPub JSON (Accept: application/activity+json,
// application/ld+json or, as Mastodon answers it, application/json). Everything else, browsers asking for the same URLs included, goes on to Elysia as
// before. WebFinger and NodeInfo are ours (src/http/wellknown) and never come here.
import { federationBuilders } from "./thread-federation.ts";
import { jsonShapeProblem } from "../lib/json-shape.ts";
import type { FederationDeps } from "./context.ts";

const ACTOR_PATH = /^\/users\/[^/]+(?:\/(?:inbox|outbox|followers|following|collections\/featured|quote_authorizations\/\d+|(?:follows|blocks)\/\d+\/\d+|statuses\/\d+(?:\/activity)?))?\/?$/;
/** A local custom emoji's id (emojis.ts). */
const EMOJI_PATH = /^\/emojis\/[A-Za-z0-9_]{2,64}\/?$/;
const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/;
/** Mastodon answers plain `application/json` with ActivityPub JSON too (its controllers' `format.json`). */
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json|json)\b/i;
const HTML_FIRST = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i;
/** Mastodon's profile URL: those asking it for ActivityPub JSON get the actor, as from /users/username. */
const PROFILE_PATH = /^\/@([^/]+)\/?$/;
/** Mastodon's status page URL (a status's `url`): ActivityPub JSON asked there is the Note at its uri. */
const STATUS_PAGE_PATH = /^\/@([^/]+)\/(\d+)\/?$/;

/** Whether a GET asks for ActivityPub JSON rather than a page (src/http/pages answers the others). */
export function wantsActivityJson(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  // A browser may list application/json after HTML: the page is what it wants (Fedify's rule too).
  return ACTIVITY_JSON.test(accept) && !HTML_FIRST.test(accept);
}

/** A GET of /@username as the same GET of the actor's URL, of /@username/<id> as one of the status's uri (the
 * rest of the request unchanged; a signature over the page's path no longer verifies there). */
function asActorRequest(request: Request, pathname: string): Request {
  const status = STATUS_PAGE_PATH.exec(pathname);
  if (status) return new Request(new URL(`/users/${status[1]}/statuses/${status[2]}`, request.url).href, { method: request.method, headers: request.headers });
  const username = PROFILE_PATH.exec(pathname)?.[1];
  return username ? new Request(new URL(`/users/${username}`, request.url).href, { method: request.method, headers: request.headers }) : request;
}

/** Whether Fedify should see the request; cheap, so every request may ask. */
export function isFederationRequest(request: Request, pathname: string): boolean {
  if (request.method === "POST") return INBOX_PATH.test(pathname);
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  // The paths first: they rule out nearly every request without reading a header.
  return (ACTOR_PATH.test(pathname) || PROFILE_PATH.test(pathname) || STATUS_PAGE_PATH.test(pathname) || EMOJI_PATH.test(pathname)) && wantsActivityJson(request);
}

const NOT_OURS = new Response(null, { status: 404 });

/** The largest inbox body read (Mastodon's limit for an activity is also 1 MiB); a longer one is 413. */
export const INBOX_BODY_LIMIT = 1024 * 1024;

const refused = (status: number, error: string) => Response.json({ error }, { status });

/** The body, read up to INBOX_BODY_LIMIT; null when the declared length or the bytes sent go past it. */
async function limitedBody(request: Request): Promise<Uint8Array | null> {
  if (Number(request.headers.get("content-length")) > INBOX_BODY_LIMIT) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > INBOX_BODY_LIMIT) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** The body as JSON, or undefined when it is not JSON (Fedify answers that). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An inbox POST with its body in memory (for Fedify), or the refusal: 413 past the size limit, 400 past the
 * API's nesting and value limits (lib/json-shape.ts), 403 from a domain an instance block cuts off
 * (domain-policy.ts), 400 for an activity whose id is not on its actor's server (activity-origin.ts). 403 rather than Mastodon's 202-and-drop for unknown actors: Mastodon itself
 * answers 403 when a signer's domain is blocked (SignatureVerification), and a peer then stops retrying at
 * once (4xx) instead of believing it was heard.
 */
async function checkedInboxPost(deps: FederationDeps, request: Request): Promise<Request | Response> {
  const body = await limitedBody(request);
  if (!body) return refused(413, "Payload Too Large");
  // Before JSON-LD or a signature is looked at: a deep enough activity overflowed the stack in JSON-LD expansion.
  const text = new TextDecoder().decode(body);
  const shapeProblem = jsonShapeProblem(text);
  if (shapeProblem) return refused(400, `The activity ${shapeProblem}`);
  const activity = parsed(text);
  // JSON that is not an object (`"x"`, `[]`, `1`) is no activity; JSON-LD took a bare string for a context URL (500).
  if (activity !== undefined && (typeof activity !== "object" || activity === null || Array.isArray(activity))) {
    return refused(400, "The activity is not a JSON object");
  }
  const { fromBlockedDomain } = await import("./domain-policy.ts");
  if (fromBlockedDomain(deps.store, request.headers, activity)) return refused(403, "This action is not allowed");
  const { hasForeignId } = await import("./activity-origin.ts");
  if (hasForeignId(activity)) return refused(400, "The activity's id is not on its actor's server");
  return new Request(request.url, { method: "POST", headers: request.headers, body });
}

/**
 * Fedify's answer, or undefined when the request is not one for it (Elysia answers it then). `refusal`: asked
 * before Fedify reads anything of a request for it (an IP block's 403, src/app.ts), and answered as it is.
 */
export function federationResponse(
  deps: FederationDeps,
  request: Request,
  refusal: () => Response | undefined = () => undefined,
): Promise<Response | undefined> | Response | undefined {
  const start = request.url.indexOf("/", request.url.indexOf("//") + 2);
  // Every path Fedify may answer starts /users/, /inbox, /@ or /emojis/: the rest (all of the API) goes on at once.
  const first = request.url.charCodeAt(start + 1);
  if (first !== 117 /* u */ && first !== 105 /* i */ && first !== 64 /* @ */ && first !== 101 /* e */) return undefined;
  const end = request.url.indexOf("?", start);
  const pathname = start < 0 ? "/" : request.url.slice(start, end < 0 ? undefined : end);
  if (!isFederationRequest(request, pathname)) return undefined;
  const refused = refusal();
  if (refused) return refused;
  request = asActorRequest(request, pathname);
  return (async () => {
    // Inbox POSTs: size and sender checked before Fedify reads anything (no key fetch for a blocked sender).
    const checked = request.method === "POST" ? await checkedInboxPost(deps, request) : request;
    if (checked instanceof Response) return checked;
    const { federationFor, preverifiedFederationFor } = await federationBuilders();
    const { refusalResponse } = await import("./authorized-fetch.ts");
    // A signature Mastodon accepts and Fedify would refuse (inbox-fallback.ts): verified by Mastodon's rules.
    const { needsOwnVerification, signedByItsActor } = await import("./inbox-fallback.ts");
    const verified = checked.method === "POST" && needsOwnVerification(checked) && (await signedByItsActor(federationFor(deps).federation, checked));
    const response = await (verified ? preverifiedFederationFor(deps) : federationFor(deps)).federation.fetch(checked, {
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
