// Reading the timelines: one range scan over the feed, each candidate row checked with policy.ts as it is
// read. Rows that fail are skipped without counting against the limit, so pages stay exact and gap-free
// for max_id, since_id and min_id alike. A request's scan stops when its row budget (query.budget) is spent:
// the page is then short, and its Link continues from the last row examined.
import type { Store } from "../../store/db.ts";
import { getStatus } from "../../store/statuses.ts";
import { versionName } from "../../store/versions.ts";
import { homeRowsBetween, newestHomeRow, pageHomeFeed, pagePublicFeed, publicFeedExists, tagFeed, type PublicFeed } from "../../store/timelines.ts";
import { homeShows, publicShows, tagShows, TimelineViewer, type PublicFilter, type TagFilter } from "./policy.ts";
import { type PageQuery, RowBudget } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Mastodon's TagFeed reads at most this many tags from each of any[], all[] and none[]. */
export const TAGS_PER_MODE = 4;

/**
 * Runs a feed scan whose `accept` reads each candidate status and keeps it when `shows` lets it through;
 * returns the statuses kept, in scan order (oldest first for min_id). Each row examined is reported to
 * query.examined.
 */
function collect(store: Store, query: PageQuery, scan: (accept: (statusId: string) => boolean) => unknown, shows: (status: StatusRecord) => boolean): StatusRecord[] {
  const out: StatusRecord[] = [];
  const { examined } = query;
  scan((statusId) => {
    const status = getStatus(store, statusId);
    const shown = !!status && shows(status);
    examined?.(statusId, shown);
    if (shown) out.push(status);
    return shown;
  });
  return out;
}

function newestFirst(statuses: StatusRecord[], query: PageQuery): StatusRecord[] {
  return query.minId ? statuses.reverse() : statuses;
}

/** GET /api/v1/timelines/home. The author is checked first (the row holds only the status id). */
export function homeTimeline(store: Store, viewerId: string, query: PageQuery): StatusRecord[] {
  const viewer = new TimelineViewer(store, viewerId);
  const statuses = collect(
    store,
    query,
    (accept) => pageHomeFeed(store, viewerId, query, accept),
    (status) => viewer.homeAuthor(status.accountId) && homeShows(viewer, status),
  );
  return newestFirst(statuses, query);
}

/**
 * What a kept top page of a feed needs to take in rows prepended since it was built (http/cache/prepend.ts):
 * the feed's version name, its newest row, and how many rows lie in a range (to tell that nothing was put in
 * or taken out below the newest row the page saw).
 */
export interface FeedEdge {
  version: string;
  newest(): string | null;
  rowsBetween(lowest: string | null, highest: string): number;
}

export function homeFeedEdge(store: Store, viewerId: string): FeedEdge {
  return {
    version: versionName.home(viewerId),
    newest: () => newestHomeRow(store, viewerId),
    rowsBetween: (lowest, highest) => homeRowsBetween(store, viewerId, lowest, highest),
  };
}

function pageFeed(store: Store, feed: PublicFeed, query: PageQuery, shows: (status: StatusRecord) => boolean): StatusRecord[] {
  return collect(store, query, (accept) => pagePublicFeed(store, feed, query, (statusId) => accept(statusId)), shows);
}

/** GET /api/v1/timelines/public. */
export function publicTimeline(store: Store, viewerId: string | null, filter: PublicFilter, query: PageQuery): StatusRecord[] {
  const viewer = new TimelineViewer(store, viewerId);
  // only_media has its own feeds: filtering the public feed for media would read it all for a page.
  const base = filter.onlyMedia ? "media" : "public";
  const feed: PublicFeed = filter.origin === "all" ? base : `${base}:${filter.origin}`;
  return newestFirst(pageFeed(store, feed, query, (status) => publicShows(viewer, status, filter)), query);
}

/** A hashtag as clients send it: without `#`, lower-case. */
export function normaliseTag(raw: string): string {
  return raw.trim().replace(/^#/, "").toLowerCase();
}

/**
 * GET /api/v1/timelines/tag/:hashtag. With any[], each tag's feed is paged and the pages merged: every
 * feed's best `limit` rows together hold the union's best `limit`, so the merged page is still exact.
 * Each feed gets the request's row budget of its own (at most 1 + TAGS_PER_MODE feeds); when some stopped
 * early, only the range every feed examined is kept, and the request's budget stops where that range ends.
 */
export function tagTimeline(store: Store, viewerId: string | null, filter: TagFilter, query: PageQuery): StatusRecord[] {
  const [tag] = filter.anyOf;
  if (!tag || !publicFeedExists(store, tagFeed(tag))) return [];
  const viewer = new TimelineViewer(store, viewerId);
  const shows = (status: StatusRecord) => tagShows(viewer, status, filter);
  const byId = new Map<string, StatusRecord>();
  const budgets: RowBudget[] = [];
  for (const name of new Set(filter.anyOf)) {
    const budget = query.budget ? new RowBudget(query.budget.rows) : undefined;
    if (budget) budgets.push(budget);
    // Rows of several feeds are not one feed's: none is reported as examined then (no window of them).
    const examined = new Set(filter.anyOf).size === 1 ? query.examined : undefined;
    for (const status of pageFeed(store, tagFeed(name), { ...query, budget, examined }, shows)) byId.set(status.id, status);
  }
  const newer = !!query.minId;
  const cut = mergedStop(budgets, newer);
  const kept = [...byId.values()].filter((s) => cut === null || (newer ? s.id <= cut : s.id >= cut));
  const ascending = kept.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = newer ? ascending.slice(0, query.limit).reverse() : ascending.reverse().slice(0, query.limit);
  if (query.budget && cut !== null && page.length < query.limit) query.budget.stop(cut, newer ? "newer" : "older");
  return page;
}

/** Where the examined ranges of several feed scans end together: the stop nearest the cursor, or null. */
function mergedStop(budgets: RowBudget[], newer: boolean): string | null {
  let cut: string | null = null;
  for (const { stoppedAt } of budgets) {
    if (stoppedAt !== null && (cut === null || (newer ? stoppedAt < cut : stoppedAt > cut))) cut = stoppedAt;
  }
  return cut;
}
