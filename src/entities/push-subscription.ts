// WebPushSubscription (API.md §4, §7.8): the push subscription of the caller's access token. `id` is a JSON
// number on Mastodon (a sequence) and here; `alerts` carries every notification type a subscription may ask
// for, off unless turned on; `server_key` is the instance's VAPID public key (the same as apps' `vapid_key`).
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import { PUSH_ALERT_TYPES } from "../domain/push/subscriptions.ts";
import type { PushSubscriptionRecord } from "../model/notifications.ts";

export const PushAlertsSchema = t.Object(
  Object.fromEntries(PUSH_ALERT_TYPES.map((type) => [type, t.Boolean()])) as Record<(typeof PUSH_ALERT_TYPES)[number], ReturnType<typeof t.Boolean>>,
  { description: "Notification type → whether it is pushed" },
);

export const WebPushSubscriptionSchema = t.Object(
  {
    id: Int({ description: "A number, not a string (as on Mastodon)" }),
    endpoint: t.String({ description: "Where pushes are posted" }),
    standard: t.Boolean({ description: "true: RFC 8291 (aes128gcm) encryption; false: the legacy aesgcm draft" }),
    alerts: PushAlertsSchema,
    policy: t.Union([t.Literal("all"), t.Literal("followed"), t.Literal("follower"), t.Literal("none")], { description: "Whose notifications are pushed: all, followed, follower or none" }),
    server_key: t.String({ description: "The instance's VAPID public key (base64url, uncompressed P-256 point)" }),
  },
  { description: "Mastodon WebPushSubscription" },
);

export type WebPushSubscription = Static<typeof WebPushSubscriptionSchema>;

export function presentPushSubscription(record: PushSubscriptionRecord, serverKey: string): WebPushSubscription {
  const alerts = Object.fromEntries(PUSH_ALERT_TYPES.map((type) => [type, record.alerts[type] === true])) as WebPushSubscription["alerts"];
  return { id: record.id, endpoint: record.endpoint, standard: record.standard, alerts, policy: record.policy, server_key: serverKey };
}
