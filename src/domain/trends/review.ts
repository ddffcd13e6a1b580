// Staff review of trends (GET /api/v1/admin/trends/*, POST …/:id/approve|reject; docs/trends.md): every
// candidate the refresh job found, with its review; a review sticks to the tag, status, link or link publisher
// (the site, whose review its links without one of their own follow) for good.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import { getStatus } from "../../store/statuses.ts";
import { getPublisherReview, getReview, getTrendList, putPublisherReview, putReview } from "../../store/trends.ts";
import { loadTag, type LoadedTag } from "../tags/follow.ts";
import { linksOf, listed, publisherOf, type LoadedLink } from "./read.ts";
import type { Review, TrendKind } from "../../model/instance.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { PublisherReview } from "../../model/instance.ts";

export interface Reviewed<T> {
  item: T;
  /** no review yet */
  requiresReview: boolean;
  /** shown to the public now */
  trendable: boolean;
}

const keysOf = (deps: Deps, kind: TrendKind): string[] => {
  if (kind === "tags") return getTrendList(deps.store, "tags").items.map((t) => t.name);
  if (kind === "statuses") return getTrendList(deps.store, "statuses").items.map((s) => s.statusId);
  return getTrendList(deps.store, "links").items.map((l) => l.id);
};

const reviewed = <T>(deps: Deps, kind: TrendKind, key: string, item: T, url?: string): Reviewed<T> => {
  const publisher = url ? publisherOf(url) : null;
  const ownOrPublisher = getReview(deps.store, kind, key) ?? (publisher ? getPublisherReview(deps.store, publisher)?.review : undefined);
  return { item, requiresReview: ownOrPublisher === undefined, trendable: listed(deps.store, kind, key, url) };
};

export function tagCandidates(deps: Deps, viewerId: string): Reviewed<LoadedTag>[] {
  return keysOf(deps, "tags").map((name) => reviewed(deps, "tags", name, loadTag(deps.store, viewerId, name)));
}

export function statusCandidates(deps: Deps): Reviewed<StatusRecord>[] {
  return keysOf(deps, "statuses").flatMap((id) => {
    const status = getStatus(deps.store, id);
    return status && !status.deletedAt ? [reviewed(deps, "statuses", id, status)] : [];
  });
}

export function linkCandidates(deps: Deps): Reviewed<LoadedLink>[] {
  return linksOf(deps.store, getTrendList(deps.store, "links").items).map((l) => reviewed(deps, "links", l.link.id, l, l.link.url));
}

/** Records the review of a current candidate (404 for anything else); returns its key. */
export async function reviewTrend(deps: Deps, kind: TrendKind, rawKey: string, review: Review): Promise<string> {
  const key = kind === "statuses" ? normaliseId(rawKey) : kind === "tags" ? rawKey.toLowerCase() : rawKey;
  if (!key || !keysOf(deps, kind).includes(key)) throw new NotFound();
  await deps.store.write(() => putReview(deps.store, kind, key, review));
  return key;
}

export interface Publisher {
  domain: string;
  review: PublisherReview | undefined;
  /** a current link candidate comes from it and nothing decides it yet */
  requiresReview: boolean;
}

/** The sites of the current link candidates (Mastodon's PreviewCardProviders), in the candidates' order. */
export function publisherCandidates(deps: Deps): Publisher[] {
  const domains = new Set<string>();
  for (const link of getTrendList(deps.store, "links").items) {
    const domain = publisherOf(link.url);
    if (domain) domains.add(domain);
  }
  return [...domains].map((domain) => {
    const review = getPublisherReview(deps.store, domain);
    return { domain, review, requiresReview: review === undefined };
  });
}

/** Approves or rejects a publisher of a current candidate (404 for any other); its links follow it. */
export async function reviewPublisher(deps: Deps, rawDomain: string, review: Review): Promise<Publisher> {
  const domain = rawDomain.toLowerCase();
  if (!publisherCandidates(deps).some((p) => p.domain === domain)) throw new NotFound();
  const decided: PublisherReview = { review, reviewedAt: Date.now() };
  await deps.store.write(() => putPublisherReview(deps.store, domain, decided));
  return { domain, review: decided, requiresReview: false };
}
