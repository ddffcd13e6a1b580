// Creating notifications, with the rules that keep them from crossing blocks and mutes. Called inside the
// store write of the action that causes them (follow authorised, mention, favourite, reblog…).
import type { Deps } from "../../deps.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import { newId } from "../../lib/ids.ts";
import { blockedEitherWay, getMute } from "../../store/relationships.ts";
import { hasNotification, insertNotification } from "../../store/notifications.ts";
import { recordEvent } from "../events.ts";
import { groupBucketFor } from "./group-key.ts";
import { policyVerdict } from "./policy.ts";
import { holdInRequest } from "./requests.ts";
import { getAccount } from "../../store/accounts.ts";
import { getStatus } from "../../store/statuses.ts";
import { blocksDomainOf } from "../../store/user-domain-blocks.ts";
import { threadMuted } from "../statuses/thread-mute.ts";
import type { NotificationRecord, NotificationType } from "../../model/notifications.ts";

export interface NotifyInput {
  type: NotificationType;
  recipientId: string;
  fromAccountId: string;
  statusId?: string | null;
  /** admin.report: the report it announces (each report notifies once, whoever filed several) */
  reportId?: string | null;
}

/** Inside a write: records the notification unless it would notify oneself, cross a block, come from an
 * account muted with notifications, duplicate an existing one or be dropped by the recipient's notification
 * policy; one the policy filters is held in its sender's notification request, unannounced. Returns the id,
 * or null when skipped. */
export function notify(deps: Pick<Deps, "store"> & { jobs: JobEnqueuer }, input: NotifyInput, now = Date.now()): string | null {
  const { store } = deps;
  const { type, recipientId, fromAccountId } = input;
  const statusId = input.statusId ?? null;
  const reportId = input.reportId ?? null;
  // A poll's end is announced to its author too, from the author (Mastodon's NotifyService does the same).
  if (recipientId === fromAccountId && type !== "poll") return null;
  if (blockedEitherWay(store, recipientId, fromAccountId)) return null;
  const mute = getMute(store, recipientId, fromAccountId, now);
  if (mute?.notifications) return null;
  // A domain the recipient blocks, and a thread it muted (Mastodon's NotifyService dismisses both).
  if (blocksDomainOf(store, recipientId, getAccount(store, fromAccountId))) return null;
  const status = statusId ? getStatus(store, statusId) : undefined;
  if (status && threadMuted(store, recipientId, status)) return null;
  if (hasNotification(store, recipientId, fromAccountId, type, statusId, reportId)) return null;
  const verdict = policyVerdict(store, { type, recipientId, fromAccountId, statusId }, now);
  if (verdict === "drop") return null;
  const id = newId(now);
  const groupBucket = groupBucketFor(store, { type, recipientId, statusId }, now);
  const record: NotificationRecord = {
    v: 1, id, type, recipientId, fromAccountId, statusId, ...(reportId ? { reportId } : {}), createdAt: now,
    ...(verdict === "filter" ? { filtered: true as const } : {}),
    ...(groupBucket !== undefined ? { groupBucket } : {}),
  };
  insertNotification(store, record);
  if (record.filtered) holdInRequest(store, record, now);
  else recordEvent(deps, "notification.created", { recipientId, notificationId: id }, "local", now);
  return id;
}
