// Rendered timeline pages, kept while nothing has been written. Clients poll their timelines much more often
// than anything changes; a page is the same bytes as long as the store is (any commit, by any thread,
// changes its last transaction id) and time has not changed what it shows (mute expiry: hence a short age
// limit). A repeated request is answered before routing: no token check, feed scan or presentation.
// A page is kept under the commit id seen when its request ARRIVED, before its token was checked: the
// token check and the page both read the store at that commit or later, so a page can only be answered
// again while nothing (a revocation, a block, a new status) has been committed since the token was checked.
import type { Deps } from "../../../deps.ts";
import type { Viewer } from "../../../domain/auth/viewer.ts";
import type { PageQuery } from "../../../store/paging.ts";
import type { StatusRecord } from "../../../store/records.ts";
import { freshSnapshot, lastCommitId } from "../../../domain/snapshot.ts";
import { statusList, type Setter } from "./statuses/shared.ts";

const MAX_PAGES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_AGE_MS = 5000;

interface Page {
  commit: number;
  at: number;
  /** UTF-8 bytes: sent without re-encoding */
  body: Uint8Array;
  /** Link and Cache-Control of the answer */
  headers: Record<string, string>;
}

export class PageCache {
  private pages = new Map<string, Page>();
  private bytes = 0;

  get(key: string, commit: number, now: number): Page | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    if (page.commit !== commit || now - page.at > MAX_AGE_MS) {
      this.drop(key, page);
      return undefined;
    }
    return page;
  }

  set(key: string, page: Page): void {
    const old = this.pages.get(key);
    if (old) this.drop(key, old);
    this.pages.set(key, page);
    this.bytes += page.body.byteLength;
    // Oldest first out (Map order is insertion order).
    for (const [oldKey, oldPage] of this.pages) {
      if (this.pages.size <= MAX_PAGES && this.bytes <= MAX_BYTES) break;
      this.drop(oldKey, oldPage);
    }
  }

  private drop(key: string, page: Page): void {
    this.pages.delete(key);
    this.bytes -= page.body.byteLength;
  }
}

/** The commit id each timeline request arrived at (set by keptPage on a miss; read by cachedStatusList). */
const arrivals = new WeakMap<Request, number>();

const encoder = new TextEncoder();
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };
const TIMELINES = "/api/v1/timelines/";

/**
 * Pages are kept under the credentials exactly as sent and the URL: the same token asking the same thing
 * again, with nothing written since (a revoked token, a changed account or user is a write), is answered
 * exactly as before, so a hit needs neither the token check nor the route.
 */
function pageKey(request: Request): string {
  return `${request.headers.get("authorization") ?? ""} ${request.url}`;
}

/**
 * A timeline page (statusList: presentation, Link header), kept for the early answer below. `read` pages
 * with `page`, whose row budget says where the Link continues when the scan stopped early.
 */
export function cachedStatusList(
  deps: Deps,
  cache: PageCache,
  request: Request,
  set: Setter,
  viewer: Pick<Viewer, "account"> | null,
  page: PageQuery,
  read: (page: PageQuery) => StatusRecord[],
): Response {
  const commit = arrivals.get(request);
  // Read from a fresh snapshot, so the page is never older than the id it is kept under.
  freshSnapshot(deps.store);
  const statuses = read(page);
  const body = encoder.encode(JSON.stringify(statusList(deps, request, set, viewer, statuses, undefined, page.budget)));
  const headers: Record<string, string> = { "cache-control": (set.headers["cache-control"] as string | undefined) ?? "private, no-store" };
  if (set.headers["link"]) headers.link = set.headers["link"] as string;
  if (commit !== undefined) cache.set(pageKey(request), { commit, at: Date.now(), body, headers });
  return new Response(body, { headers: JSON_TYPE });
}

/** Before routing: the kept page for this exact request, if it is still current. */
export function keptPage(deps: Deps, cache: PageCache, request: Request, set: Setter): Response | undefined {
  if (request.method !== "GET" || !request.url.includes(TIMELINES)) return undefined;
  const commit = lastCommitId(deps.store);
  const page = cache.get(pageKey(request), commit, Date.now());
  if (!page) {
    arrivals.set(request, commit);
    return undefined;
  }
  Object.assign(set.headers, page.headers);
  set.headers["vary"] = "Authorization";
  return new Response(page.body, { headers: JSON_TYPE });
}
