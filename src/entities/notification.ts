// Notification entity (API.md §4.7, v1 form): what the `notification` stream event carries. Types that
// concern a status include it; a notification whose account or status is gone is not shown.
import { t, type Static } from "elysia";
import type { Deps } from "../deps.ts";
import { groupKeyOf } from "../domain/notifications/group-key.ts";
import { publicId } from "../lib/ids.ts";
import { getAccount } from "../store/accounts.ts";
import type { AccountRecord, NotificationRecord } from "../store/records.ts";
import { getStatus } from "../store/statuses.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Int } from "./integer.ts";
import { presentStatuses, StatusSchema } from "./status.ts";

/** `{count}` of GET /api/v1 and /api/v2/notifications/unread_count. */
export const UnreadCountSchema = t.Object({ count: Int() }, { description: "Unread notifications (v1) or groups (v2)" });

export const NotificationSchema = t.Object(
  {
    id: t.String(),
    type: t.String({ description: "mention, status, reblog, follow, follow_request, favourite, poll, update, admin.sign_up, admin.report" }),
    created_at: t.String(),
    group_key: t.String({ description: "<type>-<status_id>-<hour> / follow-<hour> for groupable types, ungrouped-<id> otherwise" }),
    account: AccountSchema,
    status: t.Optional(StatusSchema),
  },
  { description: "Mastodon Notification" },
);

export type Notification = Static<typeof NotificationSchema>;

/** Rendered for its recipient (viewer flags of the status are theirs). */
export function presentNotification(deps: Deps, recipient: AccountRecord, notification: NotificationRecord): Notification | null {
  const from = getAccount(deps.store, notification.fromAccountId);
  if (!from) return null;
  const out: Notification = {
    id: publicId(notification.id),
    type: notification.type,
    created_at: new Date(notification.createdAt).toISOString(),
    group_key: groupKeyOf(notification),
    account: presentAccount(deps.config, from, recipient.id),
  };
  if (notification.statusId) {
    const status = getStatus(deps.store, notification.statusId);
    const [presented] = status && !status.deletedAt ? presentStatuses(deps, { account: recipient }, [status]) : [];
    if (!presented) return null;
    out.status = presented;
  }
  return out;
}

/** A page of notifications for their recipient; those whose account or status cannot be shown are left out. */
export function presentNotifications(deps: Deps, recipient: AccountRecord, notifications: readonly NotificationRecord[]): Notification[] {
  const out: Notification[] = [];
  for (const n of notifications) {
    const presented = presentNotification(deps, recipient, n);
    if (presented) out.push(presented);
  }
  return out;
}
