// Rendered timeline pages, answered again before routing while nothing they show has changed. It lives in
// http/ because what it keeps is an HTTP answer (bytes and headers, under the credentials and URL as sent);
// what a page depends on comes from the domain and the store: the versions (domain/caches/invalidate.ts) of the
// token, of what the viewer sees (relations, flags, user), of the feeds scanned and of every status and
// account examined, shown or skipped, plus the end of any mute in force that hid something. Any write that
// changes one of those bumps its version in the write's own transaction, whichever thread or process makes
// it; other writes (fan-out into other people's feeds, favourites elsewhere) leave the page alone.
import type { Deps } from "../../deps.ts";
import type { Viewer } from "../../domain/auth/viewer.ts";
import { changedVersions, recordingReads, registerCache, syncVersionsTo, versionName, type Stamp } from "../../domain/caches/invalidate.ts";
import { pageStamp, viewerNameCount } from "./page-stamp.ts";
import { PageWindows } from "./page-windows.ts";
import { AskedBefore } from "./asked-before.ts";
import { statusesJson } from "./rendered-statuses.ts";
import { JSON_TYPE, statusListJson, type Setter } from "../api/v1/statuses/shared.ts";
import type { Status } from "../../entities/status.ts";
import { cacheCells } from "../../lib/metrics/counters.ts";
import type { FilterContext } from "../../model/filters.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatuses } from "../../domain/statuses/loaded.ts";
import { loadStatuses, viewerAccountId, withCurrentAccounts } from "../../domain/statuses/load.ts";
import type { FeedEdge } from "../../domain/timelines/read.ts";
import { linkHeader } from "../plugins/paging.ts";
import { feedTop, prepended, type FeedTop } from "./prepend.ts";

const MAX_PAGES = 2000;
const ACCOUNT_VERSION = versionName.account("");
const MAX_BYTES = 64 * 1024 * 1024;
/** Requests remembered as asked once (see PageCache.admit). */
const MAX_ASKED = 20_000;
registerCache("timeline pages");
const counts = cacheCells("timeline pages");

export interface Page {
  stamp: Stamp;
  /** How many of the stamp's names are the viewer's (token, account, what it sees): they come first. */
  viewerNames: number;
  /** What the page shows, as loaded: rendered again with current accounts when only those changed. */
  loaded: LoadedStatuses;
  /** The store's last commit id when the stamp was last found current (-1: not yet checked). */
  checkedAt: number;
  /** UTF-8 bytes: sent without re-encoding */
  body: Uint8Array;
  /** Link and Cache-Control of the answer */
  headers: Record<string, string>;
  /** Was the last answer rendered again (X-Warren-Cache: rendered) rather than sent as kept (hit)? */
  renderedAgain: boolean;
  /** A top page of a feed that takes in rows prepended to it (prepend.ts). */
  top?: FeedTop;
  /** How many versions the page depended on when it was built. */
  builtNames: number;
  /** How `loaded` is rendered again (a status list by default; a thread is two: http/cache/thread-answers.ts). */
  render?: (deps: Deps, loaded: LoadedStatuses) => Uint8Array;
}

export class PageCache {
  /** Pages of a feed asked with a new max_id each time, cut from a window of it (page-windows.ts). */
  readonly windows = new PageWindows();
  private pages = new Map<string, Page>();
  private bytes = 0;
  private asked = new AskedBefore(MAX_ASKED);

  /**
   * Is this request worth keeping a page for? Only once it has been asked before: a client polling its
   * timeline asks the same thing again, one paging back through history (a new max_id each time) does not.
   * Keeping those pages churned memory: every page under a rebuild load pushed RSS from 190 to 480 MB, and
   * even a probation tier of 256 such pages, each replaced at once, took the anonymous memory of that load
   * from 214 to 409 MB.
   */
  admit(key: string): boolean {
    return this.asked.admit(key);
  }

  set(key: string, page: Page): void {
    this.drop(key);
    this.pages.set(key, page);
    this.bytes += page.body.byteLength;
    // Oldest first out (Map order is insertion order).
    for (const oldKey of this.pages.keys()) {
      if (this.pages.size <= MAX_PAGES && this.bytes <= MAX_BYTES) break;
      this.drop(oldKey);
    }
  }

  private drop(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.bytes -= page.body.byteLength;
  }

  /**
   * The page kept under `key` if nothing it shows has changed. With nothing committed at all since its
   * versions were last found unchanged, or nothing that bumped a version, they still are: the check (a map
   * lookup per version) is skipped.
   */
  get(deps: Deps, key: string, now: number): Page | undefined {
    const page = this.pages.get(key);
    if (!page) {
      counts.misses.value++;
      return undefined;
    }
    const commit = deps.store.lastCommitId();
    page.renderedAgain = false;
    if (now >= page.stamp.until || (page.checkedAt !== commit && !this.current(deps, page, commit))) {
      this.drop(key);
      counts.misses.value++;
      return undefined;
    }
    page.checkedAt = commit;
    counts.hits.value++;
    return page;
  }

  /** Is `page` still what it would be built as, now that `commit` is the last one (rendered again if need be)? */
  private current(deps: Deps, page: Page, commit: number): boolean {
    // Compare with the newest commit, not with the snapshot this thread's reads happen to share.
    if (page.stamp.seq === syncVersionsTo(deps.store, commit)) return true;
    const since = changedVersions(deps.store, page.stamp);
    // Undefined when the mirror cannot tell (a page older than what it remembers): built again.
    return !!since && (since.changed.length === 0 || this.renderedAgain(deps, page, since));
  }

  /**
   * A page whose only changes are to accounts it shows (an author's counters after a post, a new avatar),
   * not the viewer's own, and, for a top page of a feed, rows prepended to that feed: rendered again from
   * what it loaded, with those accounts as they are now, when that shows the same statuses
   * (withCurrentAccounts), and with the new rows' statuses in front (prepend.ts).
   */
  private renderedAgain(deps: Deps, page: Page, { changed, seq }: { changed: string[]; seq: number }): boolean {
    const { names } = page.stamp;
    const accounts = new Set<string>();
    let feedGrew = false;
    for (const name of changed) {
      if (name === page.top?.edge.version) feedGrew = true;
      else if (!name.startsWith(ACCOUNT_VERSION) || names.indexOf(name) < page.viewerNames) return false;
      else accounts.add(name.slice(ACCOUNT_VERSION.length));
    }
    let loaded = accounts.size ? withCurrentAccounts(deps, page.loaded, accounts) : page.loaded;
    if (!loaded) return false;
    let stamp: Stamp = { ...page.stamp, seq };
    if (feedGrew) {
      const grown = prepended(page.top!, loaded);
      if (!grown) return false;
      loaded = grown.loaded;
      page.top = grown.top;
      if (grown.link) page.headers = { ...page.headers, link: grown.link };
      const more = [...grown.names].filter((name) => !names.includes(name));
      // The names of statuses that fell off the page stay (harmless, but each is checked again): once they
      // would double what a build of the page depends on, it is built afresh instead.
      if (names.length + more.length > 2 * page.builtNames) return false;
      stamp = { ...stamp, names: more.length ? [...names, ...more] : names, until: Math.min(stamp.until, grown.until) };
    }
    const body = (page.render ?? statusesJson)(deps, loaded);
    this.bytes += body.byteLength - page.body.byteLength;
    page.body = body;
    page.loaded = loaded;
    page.renderedAgain = true;
    page.stamp = stamp;
    return true;
  }
}

/**
 * A timeline answer as the routes return it: the page's UTF-8 JSON, which Elysia sends as it is. (A returned Response is rebuilt around its body stream to add the headers set by hooks: about
 * 1 µs more per request, measured in process on a 20 KB page.) Typed as the Status list the route's schema
 * documents; that route's own check is off (timelines.ts `listResponse`) because rendered-statuses.ts
 * checks the text against the Status objects and the schema under WARREN_CHECK_RESPONSES.
 */
export type StatusListAnswer = Status[];
const answer = (body: Uint8Array) => body as unknown as StatusListAnswer;
const TIMELINES = "/api/v1/timelines/";

/**
 * Pages are kept under the credentials exactly as sent and the URL: the same token asking the same thing
 * again, with the token, its account and everything the page read unchanged, is answered exactly as
 * before, so a hit needs neither the token check nor the route.
 */
function pageKey(request: Request): string {
  return `${request.headers.get("authorization") ?? ""} ${request.url}`;
}

/**
 * A timeline page (statusListJson: its UTF-8 JSON, Link header), kept for the early answer below. `read` pages
 * with `page`, whose row budget says where the Link continues when the scan stopped early. `context`: the
 * filter context its statuses are rendered in (the viewer's filters are part of what the viewer sees: a
 * filter write bumps the viewer's version, and a filter's expiry ends the page).
 */
export function cachedStatusList(
  deps: Deps,
  cache: PageCache,
  request: Request,
  set: Setter,
  viewer: Viewer | null,
  page: PageQuery,
  read: (page: PageQuery) => StatusRecord[],
  context: FilterContext | null = null,
  edge?: FeedEdge,
): StatusListAnswer {
  // A page below a max_id that a window of the feed holds is cut from it, whether or not asked before.
  const windowed = cache.windows.answer(deps, request, set, viewer, page, { read, context });
  if (windowed) return answer(windowed);
  const key = pageKey(request);
  const keeping = cache.admit(key);
  let loaded: LoadedStatuses | undefined;
  let top: FeedTop | undefined;
  const build = () => {
    const statuses = read(page);
    const json = statusListJson(deps, request, set, viewer, statuses, { budget: page.budget, context, loadedInto: (l) => (loaded = l) });
    if (edge && keeping) top = feedTop(topOfFeed(deps, request, viewer, edge, read, context), page, statuses);
    return json;
  };
  if (deps.config.cacheStatusHeader) set.headers["x-warren-cache"] = "miss";
  if (!keeping) return answer(build());
  // One synchronous pass: the reads, the presentation and the versions all see one read snapshot.
  const { result: body, reads } = recordingReads(build);
  const stamp = pageStamp(deps, viewer, reads.names, reads.until);
  const headers: Record<string, string> = { "cache-control": (set.headers["cache-control"] as string | undefined) ?? "private, no-store" };
  if (set.headers["link"]) headers.link = set.headers["link"] as string;
  if (stamp && loaded) cache.set(key, { stamp, viewerNames: viewerNameCount(viewer), loaded, checkedAt: -1, body, headers, renderedAgain: false, top, builtNames: stamp.names.length });
  return answer(body);
}

/** How a top page of `edge`'s feed reads, loads and links rows prepended to it later (prepend.ts). */
function topOfFeed(deps: Deps, request: Request, viewer: Viewer | null, edge: FeedEdge, read: (page: PageQuery) => StatusRecord[], context: FilterContext | null) {
  const url = new Request(request.url);
  return {
    edge,
    read,
    load: (statuses: StatusRecord[]) => loadStatuses(deps, viewerAccountId(viewer), statuses, { context }),
    link: (first: string | undefined, last: string | undefined) =>
      linkHeader({ baseUrl: deps.config.url, request: url, first, last, next: true, prevParam: "min_id" }),
  };
}

/** Before routing: the kept page for this exact request, if it is still current. */
export function keptPage(deps: Deps, cache: PageCache, request: Request, set: Setter): Uint8Array | undefined {
  if (request.method !== "GET" || !request.url.includes(TIMELINES)) return undefined;
  return keptBody(deps, cache.get(deps, pageKey(request), Date.now()), set);
}

/** A kept page's bytes with the headers they were first sent with; undefined when nothing current is kept. */
export function keptBody(deps: Deps, page: Page | undefined, set: Setter): Uint8Array | undefined {
  if (!page) return undefined;
  Object.assign(set.headers, page.headers);
  set.headers["vary"] = "Authorization";
  if (deps.config.cacheStatusHeader) set.headers["x-warren-cache"] = page.renderedAgain ? "rendered" : "hit";
  set.headers["content-type"] = JSON_TYPE;
  return page.body;
}
