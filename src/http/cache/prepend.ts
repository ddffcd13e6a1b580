// A kept top page of a feed (no max_id, since_id or min_id) whose feed has only gained rows above the newest
// row it saw: the new rows are read and checked, the statuses they show loaded and rendered, and put in front
// of the kept ones, instead of building the page again. On a busy instance a polling reader's home gains a
// status between most of its reads; the build reads, checks, loads and renders 20 statuses, this only the new
// ones (docs/timelines.md, "Kept pages").
//
// Sound because a fresh build of a top page is the first `limit` rows shown, scanning down from the newest:
// rows above the old newest row are the new ones; below it, the count of rows from the page's last status up
// to it (kept with the page, counted again here) tells that nothing was put in or taken out there (a status
// committed late with an older id, a back-fill; a removal changes a status's or the viewer's versions too),
// and each kept status's own rules depend only on versions the page cache checks (timeline-pages.ts).
import type { LoadedStatuses } from "../../domain/statuses/loaded.ts";
import type { FeedEdge } from "../../domain/timelines/read.ts";
import { recordingReads } from "../../domain/caches/invalidate.ts";
import { RowBudget, type PageQuery } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** What a kept top page needs to take in prepended rows. */
export interface FeedTop {
  edge: FeedEdge;
  limit: number;
  /** The rows a build may examine (its row budget). */
  budgetRows: number;
  /** The feed's newest row when the page was last made current. */
  newest: string;
  /** The page's last status when it is full; null for a short page (the feed ran out below it). */
  lowest: string | null;
  /** Rows from `lowest` (or the feed's oldest) up to `newest`: every row the page's scan examined. */
  rows: number;
  /** The route's read of a page (the rules of its timeline). */
  read(query: PageQuery): StatusRecord[];
  /** Loads statuses for the page's viewer and filter context. */
  load(statuses: StatusRecord[]): LoadedStatuses;
  /** The page's Link header for these first and last ids. */
  link(first: string | undefined, last: string | undefined): string | null;
}

/**
 * The edge of a page just built from `statuses` (in the build's read snapshot), when its query was a top
 * page whose scan did not stop on its budget; undefined otherwise.
 */
export function feedTop(base: Omit<FeedTop, "limit" | "budgetRows" | "newest" | "lowest" | "rows">, query: PageQuery, statuses: StatusRecord[]): FeedTop | undefined {
  if (query.maxId || query.sinceId || query.minId || !query.budget || query.budget.stoppedAt !== null) return undefined;
  const newest = base.edge.newest();
  if (!newest) return undefined;
  const lowest = statuses.length >= query.limit ? statuses.at(-1)!.id : null;
  return { ...base, limit: query.limit, budgetRows: query.budget.rows, newest, lowest, rows: base.edge.rowsBetween(lowest, newest) };
}

export interface Prepended {
  loaded: LoadedStatuses;
  top: FeedTop;
  link: string | null;
  /** Versions the new rows' reads depend on, and the end of a mute that hid one of them. */
  names: Set<string>;
  until: number;
}

/**
 * `kept` (the page's statuses, current in every other respect) with the rows prepended to the feed since
 * `top` was taken, or null when the page must be built again: rows changed below the old newest row, the new
 * rows fill a page by themselves, or reading them would take the scan past its budget.
 */
export function prepended(top: FeedTop, kept: LoadedStatuses): Prepended | null {
  const { result, reads } = recordingReads(() => {
    if (top.edge.rowsBetween(top.lowest, top.newest) !== top.rows) return null;
    const budget = new RowBudget(top.budgetRows - top.rows);
    const above = top.read({ limit: top.limit, sinceId: top.newest, budget });
    if (budget.stoppedAt !== null || above.length >= top.limit) return null;
    const statuses = above.length ? [...top.load(above).statuses, ...kept.statuses].slice(0, top.limit) : kept.statuses;
    const newest = top.edge.newest() ?? top.newest;
    const lowest = statuses.length >= top.limit ? statuses.at(-1)!.status.id : null;
    return { statuses, top: { ...top, newest, lowest, rows: top.edge.rowsBetween(lowest, newest) } };
  });
  if (!result) return null;
  const { statuses } = result;
  return {
    loaded: { viewerId: kept.viewerId, statuses },
    top: result.top,
    link: top.link(statuses[0]?.status.id, statuses.at(-1)?.status.id),
    names: reads.names,
    until: reads.until,
  };
}
