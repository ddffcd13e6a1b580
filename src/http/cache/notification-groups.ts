// Pages of grouped notifications (GET /api/v2/notifications), rendered once and kept with the account's
// notification window (domain/notifications/window.ts) under what they show: the parameters that change the
// rendering (filter, grouped_types, expand_accounts) and the rows of the page. Many requests find the same rows
// (a client polling with a new max_id, or none, while nothing arrived), so they are sent the same bytes; the
// page's own reads (statuses, accounts, the viewer's flags on them) join the window's versions, so anything
// that would change the page drops it with the window. Pages with an admin report are not kept: reports have
// no version.
import { Value } from "@sinclair/typebox/value";
import type { Deps } from "../../deps.ts";
import { recordingReads, registerCache } from "../../domain/caches/invalidate.ts";
import { groupsOfRows, lastGroupPage, pageOfGroupRows } from "../../domain/notifications/group.ts";
import { filterKey, type NotificationFilter } from "../../domain/notifications/read.ts";
import { GroupedNotificationsSchema, type GroupedNotifications } from "../../entities/grouped-notification.ts";
import type { NotificationRecord } from "../../model/notifications.ts";
import type { PageQuery } from "../../model/paging.ts";
import { linkHeader } from "../plugins/paging.ts";
import { groupedNotificationsFor } from "../present.ts";
import type { Setter } from "../api/v1/statuses/shared.ts";

interface KeptPage {
  body: Uint8Array;
  /** The Link cursors: each group's newest notification id */
  cursors: string[];
}

export interface GroupedQuery {
  filter: NotificationFilter;
  groupedTypes: ReadonlySet<string> | null;
  paging: PageQuery;
  partial: boolean;
}

const encoder = new TextEncoder();
registerCache("grouped notification pages");

/** What a page's rendering depends on besides the versions: the parameters, and the rows it shows. */
function pageKey({ filter, groupedTypes, paging, partial }: GroupedQuery, rows: readonly NotificationRecord[]): string {
  const grouped = groupedTypes ? [...groupedTypes].sort().join(",") : "*";
  // The last page in its direction runs to its cursor (group.ts groupsOfRows).
  const range = lastGroupPage(rows, paging) ? `${paging.maxId ?? ""}>${paging.sinceId ?? ""}` : "";
  return `page ${filterKey(filter)} ${grouped} ${partial ? 1 : 0} ${range} ${rows.map((n) => n.id).join(",")}`;
}

/** The page as sent: the JSON of the presented groups (checked against the schema under tests, as the route would). */
function render(deps: Deps, recipientId: string, query: GroupedQuery, rows: NotificationRecord[], window: Parameters<typeof groupsOfRows>[6]): KeptPage {
  const page = groupsOfRows(deps.store, recipientId, query.filter, query.groupedTypes, query.paging, rows, window);
  const answer = groupedNotificationsFor(deps, recipientId, page.groups, true, query.partial);
  if (deps.config.checkResponses && !Value.Check(GroupedNotificationsSchema, answer)) {
    const [first] = Value.Errors(GroupedNotificationsSchema, answer);
    throw new Error(`grouped notifications do not match their schema: ${first?.path} ${first?.message}`);
  }
  return { body: encoder.encode(JSON.stringify(answer)), cursors: page.cursors };
}

/** A page of the account's notification groups, with its Link header, from the kept pages when it can be. */
export function groupedNotificationsPage(deps: Deps, request: Request, set: Setter, recipientId: string, query: GroupedQuery): GroupedNotifications {
  const { rows, window } = pageOfGroupRows(deps.store, recipientId, query.filter, query.groupedTypes, query.paging);
  const key = window && !rows.some((n) => n.reportId) ? pageKey(query, rows) : null;
  let page = key ? window!.get<KeptPage>(key) : undefined;
  if (!page && key) {
    const { result, reads } = recordingReads(() => render(deps, recipientId, query, rows, window));
    window!.depend(reads);
    window!.keep(key, (page = result), result.body.byteLength + key.length * 2);
  }
  page ??= render(deps, recipientId, query, rows, window);
  const { paging } = query;
  const link = linkHeader({ baseUrl: deps.config.url, request, first: page.cursors[0], last: page.cursors.at(-1), next: true, prevParam: "min_id", budget: paging.budget });
  if (link) set.headers["link"] = link;
  set.headers["content-type"] = "application/json; charset=utf-8";
  return page.body as unknown as GroupedNotifications;
}
