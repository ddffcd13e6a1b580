// NotificationRequest (Mastodon 4.3+): a sender's notifications held back by the recipient's notification
// policy. Renders what domain/notifications/requests.ts loadRequests read.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedRequest } from "../domain/notifications/requests.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Nullable } from "./nullable.ts";
import { presentStatus, StatusSchema } from "./status.ts";

export const NotificationRequestSchema = t.Object(
  {
    id: t.String(),
    created_at: t.String(),
    updated_at: t.String(),
    account: AccountSchema,
    notifications_count: t.String({ description: "Held notifications (a string, as Mastodon's; counted up to 100)" }),
    last_status: Nullable(StatusSchema),
  },
  { description: "Mastodon NotificationRequest" },
);

export type NotificationRequest = Static<typeof NotificationRequestSchema>;

export function presentNotificationRequests(config: Config, loaded: { viewerId: string; requests: LoadedRequest[] }): NotificationRequest[] {
  return loaded.requests.map(({ request, from, lastStatus }) => ({
    id: publicId(request.id),
    created_at: new Date(request.createdAt).toISOString(),
    updated_at: new Date(request.updatedAt).toISOString(),
    account: presentAccount(config, from, loaded.viewerId),
    notifications_count: String(request.notificationsCount),
    last_status: lastStatus ? presentStatus(config, { viewerId: loaded.viewerId, statuses: [lastStatus] }) : null,
  }));
}

export const MergedSchema = t.Object({ merged: t.Boolean({ description: "Have the notifications of every accepted request been merged?" }) });
