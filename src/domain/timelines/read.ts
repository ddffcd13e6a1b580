// Reading the timelines: one range scan over the feed, each candidate row checked with policy.ts as it is
// read. Rows that fail are skipped without counting against the limit, so pages stay exact and gap-free
// for max_id, since_id and min_id alike.
import type { Store } from "../../store/db.ts";
import type { PageQuery } from "../../store/paging.ts";
import type { StatusRecord } from "../../store/records.ts";
import { getStatus } from "../../store/statuses.ts";
import { pageHomeFeed, pagePublicFeed, publicFeedExists, tagFeed, type PublicFeed } from "../../store/timelines.ts";
import { homeShows, publicShows, tagShows, TimelineViewer, type PublicFilter, type TagFilter } from "./policy.ts";

/** Mastodon's TagFeed reads at most this many tags from each of any[], all[] and none[]. */
export const TAGS_PER_MODE = 4;

/**
 * Runs a feed scan whose `accept` reads each candidate status and keeps it when `shows` lets it through;
 * returns the statuses kept, in scan order (oldest first for min_id).
 */
function collect(store: Store, scan: (accept: (statusId: string) => boolean) => unknown, shows: (status: StatusRecord) => boolean): StatusRecord[] {
  const out: StatusRecord[] = [];
  scan((statusId) => {
    const status = getStatus(store, statusId);
    if (!status || !shows(status)) return false;
    out.push(status);
    return true;
  });
  return out;
}

function newestFirst(statuses: StatusRecord[], query: PageQuery): StatusRecord[] {
  return query.minId ? statuses.reverse() : statuses;
}

/** GET /api/v1/timelines/home. The row's author is checked before the status is even read. */
export function homeTimeline(store: Store, viewerId: string, query: PageQuery): StatusRecord[] {
  const viewer = new TimelineViewer(store, viewerId);
  const statuses = collect(
    store,
    (accept) => pageHomeFeed(store, viewerId, query, (statusId, entry) => viewer.homeAuthor(entry.authorId) && accept(statusId)),
    (status) => homeShows(viewer, status),
  );
  return newestFirst(statuses, query);
}

function pageFeed(store: Store, feed: PublicFeed, query: PageQuery, shows: (status: StatusRecord) => boolean): StatusRecord[] {
  return collect(store, (accept) => pagePublicFeed(store, feed, query, (statusId) => accept(statusId)), shows);
}

/** GET /api/v1/timelines/public. */
export function publicTimeline(store: Store, viewerId: string | null, filter: PublicFilter, query: PageQuery): StatusRecord[] {
  const viewer = new TimelineViewer(store, viewerId);
  const feed: PublicFeed = filter.origin === "all" ? "public" : `public:${filter.origin}`;
  return newestFirst(pageFeed(store, feed, query, (status) => publicShows(viewer, status, filter)), query);
}

/** A hashtag as clients send it: without `#`, lower-case. */
export function normaliseTag(raw: string): string {
  return raw.trim().replace(/^#/, "").toLowerCase();
}

/**
 * GET /api/v1/timelines/tag/:hashtag. With any[], each tag's feed is paged and the pages merged: every
 * feed's best `limit` rows together hold the union's best `limit`, so the merged page is still exact.
 */
export function tagTimeline(store: Store, viewerId: string | null, filter: TagFilter, query: PageQuery): StatusRecord[] {
  const [tag] = filter.anyOf;
  if (!tag || !publicFeedExists(store, tagFeed(tag))) return [];
  const viewer = new TimelineViewer(store, viewerId);
  const shows = (status: StatusRecord) => tagShows(viewer, status, filter);
  const byId = new Map<string, StatusRecord>();
  for (const name of new Set(filter.anyOf)) {
    for (const status of pageFeed(store, tagFeed(name), query, shows)) byId.set(status.id, status);
  }
  const ascending = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (query.minId) return ascending.slice(0, query.limit).reverse();
  return ascending.reverse().slice(0, query.limit);
}
