// Grouped notifications (API.md §4.8, §6.2). A page holds `limit` groups, each represented by its newest
// notification in the scanned range; a group counts all of its notifications up to the page's newest id, and
// on the last page its page_min_id reaches its oldest (the spec: "the last group carries data for all of its
// notifications").
import { NotFound } from "../../lib/errors.ts";
import type { Store } from "../../store/db.ts";
import { getNotification, notificationsInRange, notificationsOfStatus } from "../../store/notifications.ts";
import { getAccounts } from "../../store/accounts.ts";
import { groupKeyOf, parseGroupKey } from "./group-key.ts";
import { notificationWindow, windowGroupRows, type NotificationWindow } from "./window.ts";
import { recordingReads } from "../../store/versions.ts";
import { filterKey, lastReadNotificationId, listNotifications, matches, NO_FILTER, NotificationReader, type NotificationFilter } from "./read.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { NotificationRecord } from "../../model/notifications.ts";
import { type PageQuery, RowBudget } from "../../model/paging.ts";

/** Samples of accounts per group. */
export const SAMPLE_ACCOUNTS = 8;

export interface NotificationGroupData {
  key: string;
  /** newest first; all shown notifications of the group (bounded by the page's newest id in lists) */
  members: NotificationRecord[];
  /** in lists: the oldest member inside the page's id range */
  pageMin?: NotificationRecord;
}

/** Every shown notification of a group (hidden ones too with `includeHidden`), newest first. */
export function groupMembers(
  store: Store,
  recipientId: string,
  key: string,
  filter: NotificationFilter = NO_FILTER,
  includeHidden = false,
  reader: NotificationReader | null = includeHidden ? null : new NotificationReader(store, recipientId),
): NotificationRecord[] {
  const parsed = parseGroupKey(key);
  if (!parsed) return [];
  let candidates: NotificationRecord[];
  if (parsed.kind === "single") {
    const n = getNotification(store, recipientId, parsed.id);
    // Any notification may be addressed alone (grouped_types[] can leave a groupable type ungrouped).
    candidates = n ? [n] : [];
  } else if (parsed.kind === "status") {
    candidates = notificationsOfStatus(store, parsed.statusId)
      .filter((n) => n.recipientId === recipientId)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
  } else {
    candidates = notificationsInRange(store, recipientId, parsed.fromId, parsed.toId);
  }
  const inGroup = (n: NotificationRecord) => parsed.kind === "single" || groupKeyOf(n) === key;
  return candidates.filter((n) => inGroup(n) && matches(filter, n) && (!reader || reader.shown(n)));
}

/** One group by key (`ungrouped-<id>` included); 404 when it has no notification the recipient may see. */
export function findGroup(store: Store, recipientId: string, key: string): NotificationGroupData {
  const members = groupMembers(store, recipientId, key);
  if (members.length === 0) throw new NotFound();
  return { key, members };
}

export interface GroupPage {
  groups: NotificationGroupData[];
  /** representative notification ids, newest first: the Link cursors */
  cursors: string[];
}

/** A page of groups, newest first. `groupedTypes` null = every groupable type is grouped. */
export function listGroups(
  store: Store,
  recipientId: string,
  filter: NotificationFilter,
  groupedTypes: ReadonlySet<string> | null,
  query: PageQuery,
): GroupPage {
  const { rows, window } = pageOfGroupRows(store, recipientId, filter, groupedTypes, query);
  return groupsOfRows(store, recipientId, filter, groupedTypes, query, rows, window);
}

/** groupRows from the account's kept window (window.ts) when it can answer, else from the store (window null). */
export function pageOfGroupRows(
  store: Store,
  recipientId: string,
  filter: NotificationFilter,
  groupedTypes: ReadonlySet<string> | null,
  query: PageQuery,
): { rows: NotificationRecord[]; window: NotificationWindow | null } {
  const window = notificationWindow(store, recipientId);
  const rows = window && windowGroupRows(window, store, filter, groupedTypes, query);
  return rows ? { rows, window } : { rows: groupRows(store, recipientId, filter, groupedTypes, query), window: null };
}

/** The rows a page of groups shows, one per group (its newest in the page's range), newest first. */
export function groupRows(
  store: Store,
  recipientId: string,
  filter: NotificationFilter,
  groupedTypes: ReadonlySet<string> | null,
  query: PageQuery,
): NotificationRecord[] {
  // A row is accepted only when it opens a group not yet on the page, so `limit` counts groups.
  const seen = new Set<string>();
  return listNotifications(store, recipientId, filter, query, (n) => {
    const key = groupKeyOf(n, groupedTypes);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Is a page of `rows` the last one in its direction (see groupsOfRows)? */
export const lastGroupPage = (rows: readonly NotificationRecord[], query: PageQuery) => rows.length < query.limit && !query.budget?.stoppedAt;

/** The groups of the rows groupRows found: each with its notifications in the page's range. */
export function groupsOfRows(
  store: Store,
  recipientId: string,
  filter: NotificationFilter,
  groupedTypes: ReadonlySet<string> | null,
  query: PageQuery,
  rows: readonly NotificationRecord[],
  window: NotificationWindow | null = null,
): GroupPage {
  if (rows.length === 0) return { groups: [], cursors: [] };
  // The page's id range. An incomplete page is the last one in its direction (unless its scan ran out of
  // row budget), so its range runs to the cursor (or the end): the last group then carries data for all of
  // its notifications (Mastodon #33271).
  const newest = rows[0]!.id;
  const oldest = rows.at(-1)!.id;
  const last = lastGroupPage(rows, query);
  const below = (id: string) => (last && query.minId ? !query.maxId || id < query.maxId : id <= newest);
  const above = (id: string) => (last && !query.minId ? !query.sinceId || id > query.sinceId : id >= oldest);
  const reader = new NotificationReader(store, recipientId);
  const groups = rows.map((row): NotificationGroupData => {
    const key = groupKeyOf(row, groupedTypes);
    if (key.startsWith("ungrouped-")) return { key, members: [row], pageMin: row };
    const members = keptMembers(window, key, filter, () => groupMembers(store, recipientId, key, filter, false, reader)).filter((n) => below(n.id));
    // A row always belongs to its own group, even one whose id strayed past its group's hours.
    if (members.length === 0) return { key, members: [row], pageMin: row };
    const inPage = members.filter((n) => above(n.id));
    return { key, members, pageMin: inPage.at(-1) ?? row };
  });
  return { groups, cursors: groups.map((g) => g.members[0]!.id) };
}

/** A group's members, kept with the window that answered the page (what they were read from joins its versions). */
function keptMembers(window: NotificationWindow | null, key: string, filter: NotificationFilter, read: () => NotificationRecord[]): NotificationRecord[] {
  if (!window) return read();
  const name = `members ${filterKey(filter)} ${key}`;
  let members = window.get<NotificationRecord[]>(name);
  if (!members) {
    const { result, reads } = recordingReads(read);
    window.depend(reads);
    window.keep(name, (members = result), 64 + 8 * result.length);
  }
  return members;
}

/** Groups with notifications newer than the `notifications` marker, counted up to `limit`. */
export function unreadGroupCount(store: Store, recipientId: string, filter: NotificationFilter, groupedTypes: ReadonlySet<string> | null, limit: number): number {
  const query = { limit, sinceId: lastReadNotificationId(store, recipientId), budget: new RowBudget() };
  return listGroups(store, recipientId, filter, groupedTypes, query).groups.length;
}

/** A page of a group's notifications (for the accounts that caused them), newest first. */
/** The accounts behind notifications, each once, in the order they first appear. */
export function groupSenders(store: Store, members: readonly NotificationRecord[]): AccountRecord[] {
  return getAccounts(store, [...new Set(members.map((n) => n.fromAccountId))]);
}

export function pageGroupMembers(store: Store, recipientId: string, key: string, query: PageQuery): NotificationRecord[] {
  let members = groupMembers(store, recipientId, key);
  const { maxId, sinceId, minId } = query;
  members = members.filter((n) => (!maxId || n.id < maxId) && (!sinceId || n.id > sinceId) && (!minId || n.id > minId));
  return minId ? members.slice(Math.max(0, members.length - query.limit)) : members.slice(0, query.limit);
}
