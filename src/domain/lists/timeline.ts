// GET /api/v1/timelines/list/:id: the list's feed (filled by fan-out and back-fill), checked with the same
// rules as the list stream (timelines/policy.ts listShows). Other people's lists are 404.
import type { Store } from "../../store/db.ts";
import { getStatus } from "../../store/statuses.ts";
import { pageListFeed } from "../../store/timelines.ts";
import { listShows, TimelineViewer } from "../timelines/policy.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { ListRecord } from "../../model/relationships.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export function listTimeline(store: Store, list: ListRecord, query: PageQuery): StatusRecord[] {
  const viewer = new TimelineViewer(store, list.accountId);
  const out: StatusRecord[] = [];
  pageListFeed(store, list.id, query, (statusId) => {
    const status = getStatus(store, statusId);
    const shown = !!status && listShows(viewer, list, status);
    query.examined?.(statusId, shown);
    if (shown) out.push(status);
    return shown;
  });
  return query.minId ? out.reverse() : out;
}
