// src/reactions/media.ts and notifications.ts: uploads (processing in its own lane, shared fairly between
// uploaders; clean-up a day on), notifications (streamed; pushed only from here) and announcements.
import { expect, test } from "bun:test";
import { UNATTACHED_TTL_MS } from "../../src/domain/media/cleanup.ts";
import { eventRecorder } from "./record.ts";

const { record, reached } = eventRecorder();

test("an upload waiting for its video job is processed in the media lane, grouped by uploader", async () => {
  expect(await record("media.uploaded", { mediaId: "5", accountId: "1", processing: true })).toEqual([
    { name: "media.expire_unattached", lane: "default", delayMs: UNATTACHED_TTL_MS },
    { name: "media.process", lane: "media", delayMs: 0, group: "1" },
  ]);
});

test("an image (processed at once) gets no media job, only the clean-up a day on", async () => {
  expect(await reached("media.uploaded", { mediaId: "5", accountId: "1", processing: false })).toEqual(["media.expire_unattached"]);
  expect(UNATTACHED_TTL_MS).toBe(86_400_000);
});

test("an upload freed by a redraft expires a day on unless used again", async () => {
  expect(await record("media.detached", { mediaId: "5", accountId: "1" })).toEqual([{ name: "media.expire_detached", lane: "default", delayMs: UNATTACHED_TTL_MS }]);
});

test("a notification is streamed (realtime) and pushed (network); never pushed from a remote-origin event", async () => {
  const notification = { recipientId: "1", notificationId: "9" };
  expect(await record("notification.created", notification)).toEqual([
    { name: "push.deliver", lane: "network", delayMs: 0 },
    { name: "streaming.notification", lane: "realtime", delayMs: 0 },
  ]);
  expect(await reached("notification.created", notification, "remote")).toEqual(["streaming.notification"]);
});

test("notification requests: accepted ones merge, dismissed ones go", async () => {
  expect(await reached("notification_request.accepted", { recipientId: "1", requestId: "2", fromAccountId: "3" })).toEqual(["notifications.merge_request"]);
  expect(await reached("notification_request.dismissed", { recipientId: "1", fromAccountId: "3" })).toEqual(["notifications.drop_request"]);
});

test("announcements reach the streams only", async () => {
  expect(await record("announcement.published", { announcementId: "1" })).toEqual([{ name: "streaming.announcement", lane: "realtime", delayMs: 0 }]);
  expect(await reached("announcement.deleted", { announcementId: "1" })).toEqual(["streaming.announcement_delete"]);
  expect(await reached("announcement.reacted", { announcementId: "1", name: "👍" })).toEqual(["streaming.announcement_reaction"]);
});
