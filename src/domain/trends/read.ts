// Reading trends (GET /api/v1/trends/*; docs/trends.md): the refresh job's candidates that staff approved (or
// all of them with auto-approval on), checked again at read time: a status that may no longer trend, or that
// the viewer may not see, blocks or mutes, is left out.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import type { Store } from "../../store/db.ts";
import { getMute, isBlocking } from "../../store/relationships.ts";
import { getCard } from "../../store/statuses-cards.ts";
import { getStatus } from "../../store/statuses.ts";
import { autoApprove, getPublisherReview, getReview, getTrendList } from "../../store/trends.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { loadTag, type LoadedTag } from "../tags/follow.ts";
import { trendable } from "./compute.ts";
import type { LinkTrend, TrendKind } from "../../model/instance.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { PreviewCardRecord, StatusRecord } from "../../model/statuses.ts";

/** Mastodon's limits (API.md §9): tags and links 10 (at most 20), statuses 20 (at most 40). */
export const TREND_TAGS_LIMIT = 10;
export const TREND_LINKS_LIMIT = 10;
export const TREND_STATUSES_LIMIT = 20;

export interface OffsetPage {
  offset: number;
  limit: number;
}

/** The site a link belongs to (Mastodon's PreviewCardProvider domain): its host, lower case; null if none. */
export function publisherOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * Shown to the public: approved, or not yet reviewed while auto-approval is on. A link without a review of its
 * own follows its publisher's review, as Mastodon's PreviewCard#trendable? follows its provider's.
 */
export function listed(store: Store, kind: TrendKind, key: string, url?: string): boolean {
  const review = getReview(store, kind, key) ?? (url ? reviewOfPublisher(store, url) : undefined);
  return review === "approved" || (review === undefined && autoApprove(store));
}

function reviewOfPublisher(store: Store, url: string) {
  const domain = publisherOf(url);
  return domain ? getPublisherReview(store, domain)?.review : undefined;
}

const slice = <T>(items: T[], page: OffsetPage) => items.slice(page.offset, page.offset + page.limit);

export function trendingTags(deps: Deps, viewerId: string | null, page: OffsetPage): LoadedTag[] {
  const names = getTrendList(deps.store, "tags").items.filter((t) => listed(deps.store, "tags", t.name)).map((t) => t.name);
  return slice(names, page).map((name) => loadTag(deps.store, viewerId, name));
}

function shownTo(store: Store, viewerId: string | null, status: StatusRecord): boolean {
  if (!canSeeStatus(store, viewerId, status)) return false;
  if (!viewerId) return true;
  return !isBlocking(store, viewerId, status.accountId) && !getMute(store, viewerId, status.accountId);
}

export function trendingStatuses(deps: Deps, viewerId: string | null, page: OffsetPage): StatusRecord[] {
  const statuses: StatusRecord[] = [];
  for (const item of getTrendList(deps.store, "statuses").items) {
    if (!listed(deps.store, "statuses", item.statusId)) continue;
    const status = getStatus(deps.store, item.statusId);
    if (trendable(deps.store, status) && shownTo(deps.store, viewerId, status)) statuses.push(status);
  }
  return slice(statuses, page);
}

export interface LoadedLink {
  link: LinkTrend;
  card: PreviewCardRecord;
}

/** Links whose card is still there (read from the newest status that carried it). */
export function linksOf(store: Store, items: readonly LinkTrend[]): LoadedLink[] {
  return items.flatMap((link) => {
    const card = trendable(store, getStatus(store, link.statusId)) ? getCard(store, link.statusId) : undefined;
    return card ? [{ link, card }] : [];
  });
}

export function trendingLinks(deps: Deps, page: OffsetPage): LoadedLink[] {
  const items = getTrendList(deps.store, "links").items.filter((l) => listed(deps.store, "links", l.id, l.url));
  return slice(linksOf(deps.store, items), page);
}

/** Trending-link timeline (GET /api/v1/timelines/link): 20, at most 40. */
export const LINK_TIMELINE_LIMIT = 20;

/**
 * The statuses that shared a listed trending link (as the last refresh counted them), newest first, paged by
 * id; each checked again, and its card still that link's. 404 for a link that is not trending.
 */
export function linkTimeline(deps: Deps, viewerId: string | null, url: string, query: PageQuery): StatusRecord[] {
  const link = getTrendList(deps.store, "links").items.find((l) => l.url === url);
  if (!link || !listed(deps.store, "links", link.id, link.url)) throw new NotFound();
  const { maxId, sinceId, minId } = query;
  // Lists computed before links kept their statuses know the newest one only.
  const ids = (link.statusIds ?? [link.statusId]).filter((id) => (!maxId || id < maxId) && (!sinceId || id > sinceId) && (!minId || id > minId));
  const out: StatusRecord[] = [];
  // With min_id, the page just above it: the oldest first, returned newest first.
  for (const id of minId ? [...ids].reverse() : ids) {
    if (out.length >= query.limit) break;
    const status = getStatus(deps.store, id);
    if (trendable(deps.store, status) && getCard(deps.store, id)?.url === url && shownTo(deps.store, viewerId, status)) out.push(status);
  }
  return minId ? out.reverse() : out;
}
