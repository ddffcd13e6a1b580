// Staff review of trends (GET /api/v1/admin/trends/*, POST …/:id/approve|reject; docs/trends.md): every
// candidate the refresh job found, with its review; a review sticks to the tag, status or link for good.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import { getStatus } from "../../store/statuses.ts";
import { getReview, getTrendList, putReview } from "../../store/trends.ts";
import { loadTag, type LoadedTag } from "../tags/follow.ts";
import { linksOf, listed, type LoadedLink } from "./read.ts";
import type { Review, TrendKind } from "../../model/instance.ts";
import type { StatusRecord } from "../../model/statuses.ts";

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

const reviewed = <T>(deps: Deps, kind: TrendKind, key: string, item: T): Reviewed<T> => ({
  item,
  requiresReview: getReview(deps.store, kind, key) === undefined,
  trendable: listed(deps.store, kind, key),
});

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
  return linksOf(deps.store, getTrendList(deps.store, "links").items).map((l) => reviewed(deps, "links", l.link.id, l));
}

/** Records the review of a current candidate (404 for anything else); returns its key. */
export async function reviewTrend(deps: Deps, kind: TrendKind, rawKey: string, review: Review): Promise<string> {
  const key = kind === "statuses" ? normaliseId(rawKey) : kind === "tags" ? rawKey.toLowerCase() : rawKey;
  if (!key || !keysOf(deps, kind).includes(key)) throw new NotFound();
  await deps.store.write(() => putReview(deps.store, kind, key, review));
  return key;
}
