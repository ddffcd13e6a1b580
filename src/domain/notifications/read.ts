// Reading notifications: what a recipient is shown (API.md §6.1). Follow requests never appear (the spec);
// notifications from accounts the recipient blocks or mutes with notifications are hidden here too (the block
// clean-up job deletes them later), and so are those whose status is deleted or no longer visible.
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getMarker } from "../../store/markers.ts";
import { getNotification, pageNotifications } from "../../store/notifications.ts";
import { getMute, isBlocking } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { statusHider } from "../filters/match.ts";
import type { NotificationRecord, NotificationType } from "../../model/notifications.ts";
import { type PageQuery, RowBudget } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** A test of whether the recipient's `hide` filters in the notifications context remove a status (null: none can). */
export type StatusHider = ((status: StatusRecord) => boolean) | null;

/** The recipient's hide filters for notifications, compiled once for a read. */
export const notificationHider = (store: Store, recipientId: string): StatusHider => statusHider(store, recipientId, "notifications");

export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  "mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update", "admin.sign_up", "admin.report",
  "annual_report", "quote", "quoted_update", "move",
];

/** Notification lists: 40, at most 80 (API.md §9). */
export const NOTIFICATION_LIST_LIMIT = 40;
/** unread_count: 100, at most 1000. */
export const UNREAD_COUNT_LIMIT = 100;
export const UNREAD_COUNT_MAX = 1000;

export interface NotificationFilter {
  types: Set<string> | null;
  excludeTypes: Set<string>;
  accountId: string | null;
  /** Also notifications held back by the notification policy (`include_filtered`, or an `account_id` given) */
  includeFiltered?: boolean;
}

/** Unknown types are ignored; an empty `types[]` (after that) means every type. */
export function notificationFilter(types: string[], excludeTypes: string[], accountId?: string, includeFiltered = false): NotificationFilter {
  const known = (list: string[]) => new Set(list.filter((type) => (NOTIFICATION_TYPES as readonly string[]).includes(type)));
  const wanted = known(types);
  return {
    types: wanted.size > 0 ? wanted : null,
    excludeTypes: known(excludeTypes),
    // An account id that is not an id matches nothing.
    accountId: accountId === undefined ? null : (normaliseId(accountId) ?? "-"),
    // As Mastodon's: the notifications of one sender (a request's page) include the held ones.
    includeFiltered: includeFiltered || accountId !== undefined,
  };
}

export const NO_FILTER: NotificationFilter = { types: null, excludeTypes: new Set(), accountId: null };

/**
 * May `recipientId` see this notification at all (type and account filters aside)? `hides`: the recipient's
 * hide filters (notificationHider): a notification about a status one of them removes is not shown.
 */
export function shownTo(store: Store, recipientId: string, n: NotificationRecord, now = Date.now(), hides: StatusHider = null): boolean {
  return new NotificationReader(store, recipientId, now, hides).shown(n);
}

/**
 * shownTo for the many notifications of one read: the answers about each sender (gone, suspended, blocked,
 * muted with notifications) and each status author (suspended, blocking the recipient) are asked once.
 */
export class NotificationReader {
  private senders = new Map<string, boolean>();
  private blockers = new Map<string, boolean>();
  private suspended = new Map<string, boolean>();

  constructor(
    readonly store: Store,
    readonly recipientId: string,
    readonly now = Date.now(),
    readonly hides: StatusHider = notificationHider(store, recipientId),
  ) {}

  shown(n: NotificationRecord): boolean {
    if (n.type === "follow_request") return false;
    let sender = this.senders.get(n.fromAccountId);
    if (sender === undefined) this.senders.set(n.fromAccountId, (sender = this.senderShown(n.fromAccountId)));
    if (!sender) return false;
    if (n.statusId) {
      const status = getStatus(this.store, n.statusId);
      if (!status || !canSeeStatus(this.store, this.recipientId, status, this.blocksRecipient, this.authorSuspended)) return false;
      if (this.hides?.(status)) return false;
    }
    return true;
  }

  private senderShown(fromAccountId: string): boolean {
    const from = getAccount(this.store, fromAccountId);
    if (!from || from.suspended) return false;
    if (isBlocking(this.store, this.recipientId, fromAccountId)) return false;
    return !getMute(this.store, this.recipientId, fromAccountId, this.now)?.notifications;
  }

  private blocksRecipient = (authorId: string): boolean => {
    let hit = this.blockers.get(authorId);
    if (hit === undefined) this.blockers.set(authorId, (hit = isBlocking(this.store, authorId, this.recipientId)));
    return hit;
  };

  private authorSuspended = (authorId: string): boolean => {
    let hit = this.suspended.get(authorId);
    if (hit === undefined) this.suspended.set(authorId, (hit = getAccount(this.store, authorId)?.suspended === true));
    return hit;
  };
}

/** The filter as text, for keys of what is kept per filter. */
export function filterKey(filter: NotificationFilter): string {
  const list = (set: ReadonlySet<string> | null) => (set ? [...set].sort().join(",") : "*");
  return `${list(filter.types)}|${list(filter.excludeTypes)}|${filter.accountId ?? ""}|${filter.includeFiltered ? 1 : 0}`;
}

export function matches(filter: NotificationFilter, n: NotificationRecord): boolean {
  if (n.filtered && !filter.includeFiltered) return false;
  if (filter.types && !filter.types.has(n.type)) return false;
  if (filter.excludeTypes.has(n.type)) return false;
  return !filter.accountId || n.fromAccountId === filter.accountId;
}

/** A page of the recipient's notifications, newest first (bounded by `query.budget` when it has one). */
export function listNotifications(
  store: Store,
  recipientId: string,
  filter: NotificationFilter,
  query: PageQuery,
  alsoAccept: (n: NotificationRecord) => boolean = () => true,
): NotificationRecord[] {
  const reader = new NotificationReader(store, recipientId);
  return pageNotifications(store, recipientId, query, (n) => matches(filter, n) && reader.shown(n) && alsoAccept(n));
}

/** One of the recipient's own notifications; 404 for anyone else's, unknown ids and hidden ones. */
export function findNotification(store: Store, recipientId: string, rawId: string): NotificationRecord {
  const id = normaliseId(rawId);
  const n = id ? getNotification(store, recipientId, id) : undefined;
  if (!n || !shownTo(store, recipientId, n, Date.now(), notificationHider(store, recipientId))) throw new NotFound();
  return n;
}

/** Id of the last notification the recipient read (the `notifications` marker), or null. */
export function lastReadNotificationId(store: Store, recipientId: string): string | null {
  const id = getMarker(store, recipientId, "notifications")?.lastReadId;
  return id ? normaliseId(id) : null;
}

/**
 * Notifications newer than the marker, counted up to `limit`, among the newest unread rows a row budget
 * lets the count examine (hidden and filtered-out rows cost as much to skip as to count).
 */
export function unreadCount(store: Store, recipientId: string, filter: NotificationFilter, limit: number): number {
  const query = { limit, sinceId: lastReadNotificationId(store, recipientId), budget: new RowBudget() };
  return listNotifications(store, recipientId, filter, query).length;
}
