// Loading notifications for presentation: the accounts that caused them and, through the status loader, the
// statuses they concern, read for the whole page in one pass. The entities render what is returned here.
import type { Deps } from "../../deps.ts";
import { getAccount } from "../../store/accounts.ts";
import { getNotification } from "../../store/notifications.ts";
import { getStatus } from "../../store/statuses.ts";
import { loadStatuses } from "../statuses/load.ts";
import { loadReport, type LoadedReport } from "../reports/load.ts";
import { movedTargetOf } from "../accounts/read.ts";
import { SAMPLE_ACCOUNTS, type NotificationGroupData } from "./group.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { NotificationRecord } from "../../model/notifications.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatus, LoadedStatuses } from "../statuses/loaded.ts";

export interface LoadedNotification {
  notification: NotificationRecord;
  from: AccountRecord;
  /** For the types that concern a status. */
  status: LoadedStatus | null;
  /** admin.report: the report (with its reported account). */
  report: LoadedReport | null;
  /** The account `from` moved to (its `moved`; a `move` notification's `target`). */
  fromMovedTo: AccountRecord | null;
}

export interface LoadedNotifications {
  recipientId: string;
  notifications: LoadedNotification[];
}

/**
 * A page of notifications for their recipient (the statuses with the recipient's flags, and `filtered` in
 * the notifications context). A notification whose account is gone, or whose status is gone, deleted, cannot
 * be shown or is removed by one of the recipient's `hide` filters (a stream push), is left out.
 */
export function loadNotifications(deps: Deps, recipientId: string, notifications: readonly NotificationRecord[]): LoadedNotifications {
  const froms = new Map<NotificationRecord, AccountRecord>();
  const statuses = new Map<string, StatusRecord>();
  for (const n of notifications) {
    const from = getAccount(deps.store, n.fromAccountId);
    if (!from) continue;
    froms.set(n, from);
    if (!n.statusId || statuses.has(n.statusId)) continue;
    const status = getStatus(deps.store, n.statusId);
    if (status && !status.deletedAt) statuses.set(status.id, status);
  }
  const loaded = new Map<string, LoadedStatus>();
  for (const entry of loadStatuses(deps, recipientId, [...statuses.values()], { context: "notifications" }).statuses) {
    if (!hiddenByFilter(entry, recipientId)) loaded.set(entry.status.id, entry);
  }
  const out: LoadedNotification[] = [];
  for (const [notification, from] of froms) {
    const status = notification.statusId ? loaded.get(notification.statusId) : null;
    if (status === undefined) continue;
    const report = notification.reportId ? loadReport(deps, notification.reportId) : null;
    if (notification.reportId && !report) continue;
    out.push({ notification, from, status, report, fromMovedTo: movedTargetOf(deps, from) });
  }
  return { recipientId, notifications: out };
}

/** Does one of the recipient's `hide` filters that matched (in the notifications context) remove it? Not for their own statuses. */
function hiddenByFilter(entry: LoadedStatus, recipientId: string): boolean {
  const author = (entry.reblog ?? entry).status.accountId;
  return author !== recipientId && !!entry.filtered?.some((match) => match.filter.action === "hide");
}

/** One notification by id, as the streaming server pushes it (empty when it is gone or cannot be shown). */
export function loadNotificationById(deps: Deps, recipientId: string, notificationId: string): LoadedNotifications {
  const notification = getNotification(deps.store, recipientId, notificationId);
  return loadNotifications(deps, recipientId, notification ? [notification] : []);
}

interface LoadedGroup {
  group: NotificationGroupData;
  /** The newest member: the group's type, id and time. */
  newest: NotificationRecord;
  /** Up to SAMPLE_ACCOUNTS distinct accounts that still exist, newest first. */
  sampleAccountIds: string[];
  statusId: string | null;
  /** admin.report: the report of the newest member. */
  report: LoadedReport | null;
}

export interface LoadedNotificationGroups {
  recipientId: string;
  groups: LoadedGroup[];
  /** Every sampled account once. */
  accounts: AccountRecord[];
  /** Every status a group concerns, once. */
  statuses: LoadedStatuses;
}

/** Groups for their recipient; a group about a status that no longer exists is left out. */
export function loadNotificationGroups(deps: Deps, recipientId: string, groups: readonly NotificationGroupData[]): LoadedNotificationGroups {
  const accounts = new Map<string, AccountRecord>();
  const statuses = new Map<string, StatusRecord>();
  const out: LoadedGroup[] = [];
  for (const group of groups) {
    const newest = group.members[0];
    if (!newest) continue;
    const samples: string[] = [];
    for (const n of group.members) {
      if (samples.length >= SAMPLE_ACCOUNTS) break;
      if (samples.includes(n.fromAccountId)) continue;
      const account = getAccount(deps.store, n.fromAccountId);
      if (!account) continue;
      samples.push(n.fromAccountId);
      accounts.set(account.id, account);
    }
    let statusId: string | null = null;
    if (newest.statusId) {
      const status = getStatus(deps.store, newest.statusId);
      if (!status) continue;
      statuses.set(status.id, status);
      statusId = status.id;
    }
    const report = newest.reportId ? loadReport(deps, newest.reportId) : null;
    if (newest.reportId && !report) continue;
    out.push({ group, newest, sampleAccountIds: samples, statusId, report });
  }
  const loadedStatuses = loadStatuses(deps, recipientId, [...statuses.values()], { context: "notifications" });
  return { recipientId, groups: out, accounts: [...accounts.values()], statuses: loadedStatuses };
}
