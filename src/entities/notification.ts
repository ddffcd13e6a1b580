// Notification entity (API.md §4.7, v1 form): what the `notification` stream event carries. Types that
// concern a status include it. Renders what domain/notifications/load.ts read (it leaves out a notification
// whose account or status is gone).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { groupKeyOf } from "../domain/notifications/group-key.ts";
import type { LoadedNotification, LoadedNotifications } from "../domain/notifications/load.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Int } from "./integer.ts";
import { presentStatus, StatusSchema } from "./status.ts";
import { AnnualReportEventSchema, presentAnnualReportEvent } from "./annual-report.ts";
import { presentReport, ReportSchema } from "./report.ts";

/** `{count}` of GET /api/v1 and /api/v2/notifications/unread_count. */
export const UnreadCountSchema = t.Object({ count: Int() }, { description: "Unread notifications (v1) or groups (v2)" });

export const NotificationSchema = t.Object(
  {
    id: t.String(),
    type: t.String({ description: "mention, status, reblog, follow, follow_request, favourite, poll, update, admin.sign_up, admin.report, quote, quoted_update, move (an account followed moved: `account` is it, `target` where it went, as Pleroma and Akkoma send it)" }),
    created_at: t.String(),
    group_key: t.String({ description: "<type>-<status_id>-<hour> / follow-<hour> for groupable types, ungrouped-<id> otherwise" }),
    account: AccountSchema,
    status: t.Optional(StatusSchema),
    annual_report: t.Optional(AnnualReportEventSchema),
    report: t.Optional(ReportSchema),
    target: t.Optional(AccountSchema),
    filtered: t.Optional(t.Boolean({ description: "true when held back by your notification policy (include_filtered)" })),
  },
  { description: "Mastodon Notification" },
);

export type Notification = Static<typeof NotificationSchema>;

/** Rendered for its recipient (the viewer flags of the status are theirs). */
function presentNotification(config: Config, recipientId: string, loaded: LoadedNotification): Notification {
  const { notification } = loaded;
  const out: Notification = {
    id: publicId(notification.id),
    type: notification.type,
    created_at: new Date(notification.createdAt).toISOString(),
    group_key: groupKeyOf(notification),
    account: presentAccount(config, loaded.from, recipientId, loaded.fromMovedTo),
  };
  if (notification.type === "move" && loaded.fromMovedTo) out.target = presentAccount(config, loaded.fromMovedTo, recipientId);
  if (loaded.status) out.status = presentStatus(config, { viewerId: recipientId, statuses: [loaded.status] });
  if (notification.annualReportYear !== undefined) out.annual_report = presentAnnualReportEvent(notification.annualReportYear);
  if (loaded.report) out.report = presentReport(config, loaded.report, recipientId);
  if (notification.filtered) out.filtered = true;
  return out;
}

export function presentNotifications(config: Config, page: LoadedNotifications): Notification[] {
  return page.notifications.map((loaded) => presentNotification(config, page.recipientId, loaded));
}
