// Rendered timeline pages, kept while nothing has been written. Clients poll their timelines much more often
// than anything changes; a page is the same bytes as long as the store is (any commit, by any thread,
// changes its last transaction id) and time has not changed what it shows (mute expiry: hence a short age
// limit). A hit costs the token check and one lookup instead of the feed scan and the presentation.
import type { Deps } from "../../../deps.ts";
import type { Viewer } from "../../../domain/auth/viewer.ts";
import type { StatusRecord } from "../../../store/records.ts";
import { freshSnapshot, lastCommitId } from "../../../store/timelines.ts";
import { statusList, type Setter } from "./statuses/shared.ts";

const MAX_PAGES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_AGE_MS = 5000;

interface Page {
  commit: number;
  at: number;
  /** UTF-8 bytes: sent without re-encoding */
  body: Uint8Array;
  link: string | undefined;
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

const encoder = new TextEncoder();
const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/**
 * A timeline page (statusList: Link header, presentation) answered from the cache when still current. The
 * answer is a pre-serialised Response, which Elysia sends as is (the route's response schema documents it).
 */
export function cachedStatusList(
  deps: Deps,
  cache: PageCache,
  request: Request,
  set: Setter,
  viewer: Pick<Viewer, "account"> | null,
  read: () => StatusRecord[],
): Response {
  const key = `${viewer?.account?.id ?? "-"} ${request.url}`;
  const now = Date.now();
  const commit = lastCommitId(deps.store);
  let page = cache.get(key, commit, now);
  if (!page) {
    // Read from a snapshot no older than `commit`, so the page is never older than the id it is kept under.
    freshSnapshot(deps.store);
    const body = encoder.encode(JSON.stringify(statusList(deps, request, set, viewer, read())));
    page = { commit, at: now, body, link: set.headers["link"] as string | undefined };
    cache.set(key, page);
  } else if (page.link) {
    set.headers["link"] = page.link;
  }
  return new Response(page.body, { headers: JSON_TYPE });
}
