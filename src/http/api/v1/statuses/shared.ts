// What the status route groups share: id params, error sets, and the status-list answer with its Link header.
import { t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import type { Viewer } from "../../../../domain/auth/viewer.ts";
import { StatusSchema, type Status } from "../../../../entities/status.ts";
import { statusesJson } from "../../../cache/rendered-statuses.ts";
import { loadStatuses, viewerAccountId } from "../../../../domain/statuses/load.ts";
import { linkHeader } from "../../../plugins/paging.ts";
import { ErrorBody } from "../../../schemas.ts";
import type { FilterContext } from "../../../../model/filters.ts";
import type { RowBudget } from "../../../../model/paging.ts";
import type { StatusRecord } from "../../../../model/statuses.ts";
import type { LoadedStatuses } from "../../../../domain/statuses/loaded.ts";

/** Status lists: 20 by default, at most 40 (API.md §9). */
export const STATUS_LIST_LIMIT = 20;
/** Account lists around a status (favourited_by, reblogged_by): 40, at most 80. */
export const ACCOUNT_LIST_LIMIT = 40;

/** Any text: an id that is not an id is simply not found (404), as on Mastodon. */
export const StatusIdParams = t.Object({ id: t.String({ description: "Status id" }) });

/** Public reads: a bad or under-scoped token, or a status the caller may not see. */
export const readErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
/** Actions: also 422 (app token, validation). */
export const actionErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export type Setter = { headers: Record<string, unknown> };

export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A status list's 200 as documented: an array of Status. Lists are sent as the UTF-8 JSON that
 * rendered-statuses.ts writes, which checks it against the Status objects and this schema under
 * WARREN_CHECK_RESPONSES; Elysia's own check of the answer is off.
 */
export const StatusListSchema = Object.assign(t.Array(StatusSchema), { noValidate: true });

/**
 * A page of statuses as the UTF-8 JSON sent, with its Link header. Status lists always offer `next` on a
 * non-empty page (the spec's rule 3) and `prev` with min_id. `cursors` are the rows' ids when the list is a
 * join table (favourites, bookmarks); by default the statuses' own ids. `budget`: that of a bounded read.
 * `context`: the filter context of the read path (statusesFor). `loadedInto` is given what was loaded.
 */
export function statusListJson(
  deps: Deps,
  request: Request,
  set: Setter,
  viewer: Pick<Viewer, "account"> | null,
  statuses: StatusRecord[],
  { cursors, budget, context = null, loadedInto }: StatusListOptions = {},
): Uint8Array {
  const link = linkHeader({ baseUrl: deps.config.url, request, first: cursors ? cursors[0] : statuses[0]?.id, last: cursors ? cursors.at(-1) : statuses.at(-1)?.id, next: true, prevParam: "min_id", budget });
  if (link) set.headers["link"] = link;
  set.headers["content-type"] = JSON_TYPE;
  const loaded = loadStatuses(deps, viewerAccountId(viewer), statuses, { context });
  loadedInto?.(loaded);
  return statusesJson(deps, loaded);
}

export interface StatusListOptions {
  cursors?: string[];
  budget?: RowBudget;
  context?: FilterContext | null;
  loadedInto?: (loaded: LoadedStatuses) => void;
}

/** statusListJson as a route returns it: typed as the Status list its schema (StatusListSchema) documents. */
export function statusList(deps: Deps, request: Request, set: Setter, viewer: Pick<Viewer, "account"> | null, statuses: StatusRecord[], options: StatusListOptions = {}): Status[] {
  return statusListJson(deps, request, set, viewer, statuses, options) as unknown as Status[];
}
