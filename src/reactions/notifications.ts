// What follows a notification or an announcement (domain/notifications, domain/announcements): the streams,
// Web Push (docs/push.md; never for remote events), and notification requests accepted or dismissed.
import type { Subscriber } from "../domain/events.ts";
import { STREAM_TOPIC } from "../domain/streaming/signals.ts";
import { dropDismissedRequest, mergeAcceptedRequest } from "../domain/notifications/requests.ts";
import { deliverPush } from "../domain/push/deliver.ts";
import { on } from "./table.ts";

export const NOTIFICATION_REACTIONS: readonly Subscriber<any>[] = [
  on({
    name: "streaming.notification",
    on: "notification.created",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "notification", ...event.payload }),
  }),
  on({ name: "push.deliver", on: "notification.created", lane: "network", localOnly: true, run: (ctx, event) => deliverPush(ctx, event.payload) }),
  // Notification requests (domain/notifications/requests.ts): accepted ones merge, dismissed ones go
  on({ name: "notifications.merge_request", on: "notification_request.accepted", lane: "default", run: (ctx, event) => mergeAcceptedRequest(ctx, event.payload) }),
  on({
    name: "notifications.drop_request",
    on: "notification_request.dismissed",
    lane: "default",
    run: (ctx, event) => dropDismissedRequest(ctx, event.payload, event.at),
  }),
  // Announcements: every user's stream hears of them
  on({
    name: "streaming.announcement",
    on: "announcement.published",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement", announcementId: event.payload.announcementId }),
  }),
  on({
    name: "streaming.announcement_delete",
    on: "announcement.deleted",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement.delete", announcementId: event.payload.announcementId }),
  }),
  on({
    name: "streaming.announcement_reaction",
    on: "announcement.reacted",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement.reaction", ...event.payload }),
  }),
];
