// GroupedNotificationsResults (API.md §4.8): groups plus the accounts and statuses they refer to, each once.
import { t, type Static } from "elysia";
import type { Deps } from "../deps.ts";
import type { NotificationGroupData } from "../domain/notifications/group.ts";
import { SAMPLE_ACCOUNTS } from "../domain/notifications/group.ts";
import { publicId } from "../lib/ids.ts";
import { getAccount } from "../store/accounts.ts";
import type { AccountRecord, StatusRecord } from "../store/records.ts";
import { getStatus } from "../store/statuses.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Int } from "./integer.ts";
import { presentStatuses, StatusSchema } from "./status.ts";

export const NotificationGroupSchema = t.Object(
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
  },
  { description: "Mastodon NotificationGroup" },
);

export const GroupedNotificationsSchema = t.Object(
  {
    accounts: t.Array(AccountSchema),
    statuses: t.Array(StatusSchema),
    notification_groups: t.Array(NotificationGroupSchema),
  },
  { description: "Mastodon GroupedNotificationsResults" },
);

export type NotificationGroup = Static<typeof NotificationGroupSchema>;
export type GroupedNotifications = Static<typeof GroupedNotificationsSchema>;

/** `paged`: list answers carry page_min_id, page_max_id and latest_page_notification_at. */
export function presentGroupedNotifications(deps: Deps, recipient: AccountRecord, groups: readonly NotificationGroupData[], paged: boolean): GroupedNotifications {
  const accounts = new Map<string, AccountRecord>();
  const statuses = new Map<string, StatusRecord>();
  const out: NotificationGroup[] = [];
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
    const entry: NotificationGroup = {
      group_key: group.key,
      notifications_count: group.members.length,
      type: newest.type,
      most_recent_notification_id: publicId(newest.id),
      sample_account_ids: samples.map(publicId),
    };
    if (paged) {
      entry.page_min_id = publicId((group.pageMin ?? newest).id);
      entry.page_max_id = publicId(newest.id);
      entry.latest_page_notification_at = new Date(newest.createdAt).toISOString();
    }
    if (newest.statusId) {
      const status = getStatus(deps.store, newest.statusId);
      if (!status) continue;
      statuses.set(status.id, status);
      entry.status_id = publicId(status.id);
    }
    out.push(entry);
  }
  return {
    accounts: [...accounts.values()].map((a) => presentAccount(deps.config, a, recipient.id)),
    statuses: presentStatuses(deps, { account: recipient }, [...statuses.values()]),
    notification_groups: out,
  };
}
