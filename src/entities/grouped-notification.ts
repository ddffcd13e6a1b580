// GroupedNotificationsResults (API.md §4.8): groups plus the accounts and statuses they refer to, each once,
// as domain/notifications/load.ts read them.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedNotificationGroups } from "../domain/notifications/load.ts";
import { SAMPLE_ACCOUNTS } from "../domain/notifications/group.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Int } from "./integer.ts";
import { presentStatuses, StatusSchema } from "./status.ts";
import { AnnualReportEventSchema, presentAnnualReportEvent } from "./annual-report.ts";
import { presentReport, ReportSchema } from "./report.ts";

const NotificationGroupSchema = t.Object(
  {
    group_key: t.String(),
    notifications_count: Int(),
    type: t.String(),
    most_recent_notification_id: t.String(),
    page_min_id: t.Optional(t.String({ description: "Only in paginated lists" })),
    page_max_id: t.Optional(t.String({ description: "Only in paginated lists" })),
    latest_page_notification_at: t.Optional(t.String({ description: "Only in paginated lists" })),
    sample_account_ids: t.Array(t.String(), { description: `Up to ${SAMPLE_ACCOUNTS} accounts, newest first` }),
    status_id: t.Optional(t.String()),
    annual_report: t.Optional(AnnualReportEventSchema),
    report: t.Optional(ReportSchema),
  },
  { description: "Mastodon NotificationGroup" },
);

/** PartialAccountWithAvatar: enough to draw the avatars of a group's other accounts (expand_accounts=partial_avatars). */
const PartialAccountSchema = t.Pick(AccountSchema, ["id", "acct", "url", "avatar", "avatar_static", "avatar_description", "locked", "bot"], {
  description: "Mastodon PartialAccountWithAvatar",
});

export const GroupedNotificationsSchema = t.Object(
  {
    accounts: t.Array(AccountSchema),
    partial_accounts: t.Optional(t.Array(PartialAccountSchema, { description: "Only with expand_accounts=partial_avatars" })),
    statuses: t.Array(StatusSchema),
    notification_groups: t.Array(NotificationGroupSchema),
  },
  { description: "Mastodon GroupedNotificationsResults" },
);

type NotificationGroup = Static<typeof NotificationGroupSchema>;
export type GroupedNotifications = Static<typeof GroupedNotificationsSchema>;

/**
 * `paged`: list answers carry page_min_id, page_max_id and latest_page_notification_at. `partial`
 * (expand_accounts=partial_avatars): `accounts` holds each group's newest account in full and
 * `partial_accounts` the other sampled ones, as Mastodon's GroupedNotificationsPresenter.
 */
export function presentGroupedNotifications(config: Config, loaded: LoadedNotificationGroups, paged: boolean, partial = false): GroupedNotifications {
  const groups = loaded.groups.map(({ group, newest, sampleAccountIds, statusId, report }) => {
    const entry: NotificationGroup = {
      group_key: group.key,
      notifications_count: group.members.length,
      type: newest.type,
      most_recent_notification_id: publicId(newest.id),
      sample_account_ids: sampleAccountIds.map(publicId),
    };
    if (paged) {
      entry.page_min_id = publicId((group.pageMin ?? newest).id);
      entry.page_max_id = publicId(newest.id);
      entry.latest_page_notification_at = new Date(newest.createdAt).toISOString();
    }
    if (statusId) entry.status_id = publicId(statusId);
    if (newest.annualReportYear !== undefined) entry.annual_report = presentAnnualReportEvent(newest.annualReportYear);
    if (report) entry.report = presentReport(config, report, loaded.recipientId);
    return entry;
  });
  const statuses = presentStatuses(config, loaded.statuses);
  const present = (a: (typeof loaded.accounts)[number]) => presentAccount(config, a, loaded.recipientId);
  if (!partial) return { accounts: loaded.accounts.map(present), statuses, notification_groups: groups };
  const full = new Set(loaded.groups.map((g) => g.sampleAccountIds[0]).filter((id) => id !== undefined));
  const accounts = loaded.accounts.filter((a) => full.has(a.id)).map(present);
  const partialAccounts = loaded.accounts.filter((a) => !full.has(a.id)).map((a) => {
    const { id, acct, url, avatar, avatar_static, avatar_description, locked, bot } = present(a);
    return { id, acct, url, avatar, avatar_static, avatar_description, locked, bot };
  });
  return { accounts, partial_accounts: partialAccounts, statuses, notification_groups: groups };
}
