// Mastodon list paging: `limit` (default per endpoint, honoured up to twice the default, clamped above,
// negatives made positive, garbage → 0 rows) and the cursor parameters, plus the `Link` header.
import { normaliseId, publicId } from "../../lib/ids.ts";
import { type PageQuery, RowBudget } from "../../model/paging.ts";

export interface PagingParams {
  limit?: string;
  max_id?: string;
  since_id?: string;
  min_id?: string;
}

export function parseLimit(raw: string | undefined, defaultLimit: number, max = defaultLimit * 2): number {
  if (raw === undefined) return defaultLimit;
  const n = Math.abs(parseInt(raw, 10));
  return Number.isFinite(n) ? Math.min(n, max) : 0;
}

export function pageQuery(query: PagingParams, defaultLimit: number, max?: number): PageQuery {
  return {
    limit: parseLimit(query.limit, defaultLimit, max),
    maxId: query.max_id ? normaliseId(query.max_id) : null,
    sinceId: query.since_id ? normaliseId(query.since_id) : null,
    minId: query.min_id ? normaliseId(query.min_id) : null,
  };
}

/**
 * The page query of a filtered read (timelines, an account's statuses, notifications): it examines at most
 * SCAN_ROW_BUDGET rows, and its Link header (pass `budget`) continues from where it stopped.
 */
export function boundedPageQuery(query: PagingParams, defaultLimit: number, max?: number): PageQuery {
  return { ...pageQuery(query, defaultLimit, max), budget: new RowBudget() };
}

export interface LinkOptions {
  /** The public base URL and the request, whose other parameters the links repeat. */
  baseUrl: string;
  request: Request;
  /** Cursor ids of the first (newest) and last (oldest) row of the page; absent for an empty page. */
  first?: string;
  last?: string;
  /** Emit `next` (timelines and notifications always do on a non-empty page; other lists when full). */
  next: boolean;
  prevParam?: "min_id" | "since_id";
  /** The budget of a bounded read: when it ran out, a link in the scan's direction starts past the last row examined. */
  budget?: RowBudget;
}

const CURSORS = new Set(["max_id", "since_id", "min_id"]);
/** A token sent in the query is never repeated into links (they end up in logs and shared URLs). */
const TOKENS = new Set(["access_token", "bearer_token"]);

function pageUrl(baseUrl: string, request: Request, cursor: [string, string]): string {
  const url = new URL(request.url);
  const params = new URLSearchParams();
  for (const [key, value] of url.searchParams) if (!CURSORS.has(key) && !TOKENS.has(key)) params.append(key, value);
  params.set(cursor[0], cursor[1]);
  return `${baseUrl}${url.pathname}?${params.toString()}`;
}

export function linkHeader(options: LinkOptions): string | null {
  const stop = options.budget?.stoppedAt ? options.budget : null;
  // A scan that stopped early may leave a short or empty page; its link in that direction still goes on.
  const next = stop?.stoppedGoing === "older" ? stop.stoppedAt : options.next ? options.last : undefined;
  const prev: [string, string] | null =
    stop?.stoppedGoing === "newer" ? ["min_id", stop.stoppedAt!] : options.first ? [options.prevParam ?? "min_id", options.first] : null;
  if (!stop && (!options.first || !options.last)) return null;
  const links: string[] = [];
  if (next) links.push(`<${pageUrl(options.baseUrl, options.request, ["max_id", publicId(next)])}>; rel="next"`);
  if (prev) links.push(`<${pageUrl(options.baseUrl, options.request, [prev[0], publicId(prev[1])])}>; rel="prev"`);
  return links.join(", ");
}

/** The Link header of a list of records with snowflake ids (admin lists): next when the page is full, prev with min_id. */
export function setIdListLink(baseUrl: string, request: Request, set: { headers: Record<string, unknown> }, ids: string[], limit: number): void {
  const link = linkHeader({ baseUrl, request, first: ids[0], last: ids.at(-1), next: ids.length > 0 && ids.length === limit, prevParam: "min_id" });
  if (link) set.headers["link"] = link;
}
