// The `push.deliver` subscriber of `notification.created` (network lane): the notification goes to every
// subscription of the recipient whose alert for its type is on and whose policy admits its sender, as long
// as the recipient would be shown it (GET /api/v1/notifications) and the token is alive. Failures worth
// retrying fail the job (the queue retries it with backoff); subscriptions a push service calls gone are
// removed. A retried job skips the subscriptions an earlier attempt reached, so a device that failed does
// not make the others see the message twice.
import { log } from "../../lib/log.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { getNotification } from "../../store/notifications.ts";
import { findToken } from "../../store/oauth.ts";
import {
  deliveredTo,
  forgetDelivered,
  hasPushSubscriptions,
  markDelivered,
  pushSubscriptionsOf,
  removePushSubscription,
} from "../../store/push.ts";
import { getFollowRequest, isFollowing } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import type { EventPayloads, SubscriberContext } from "../events.ts";
import { notificationHider, shownTo } from "../notifications/read.ts";
import { pushMessage, pushMessageJson } from "./payload.ts";
import { sendPush, type PushOutcome, type SendOptions } from "./send.ts";
import { ensureVapidKeys } from "./vapid.ts";
import type { NotificationRecord, PushSubscriptionRecord } from "../../model/notifications.ts";

/** Does the subscription want this notification: its alert for the type, then its policy on the sender. */
export function admits(store: Store, subscription: PushSubscriptionRecord, notification: NotificationRecord): boolean {
  if (subscription.alerts[notification.type] !== true) return false;
  const { recipientId, fromAccountId } = notification;
  switch (subscription.policy) {
    case "all":
      return true;
    case "followed":
      return isFollowing(store, recipientId, fromAccountId);
    case "follower":
      return isFollowing(store, fromAccountId, recipientId);
    default:
      return false;
  }
}

/** Would the recipient be shown it now? Follow requests are left out of the notification lists (the spec) but
 * pushed while the request is pending, as Mastodon does. */
function stillShown(store: Store, notification: NotificationRecord): boolean {
  const { recipientId, fromAccountId } = notification;
  if (notification.type === "follow_request") {
    return !!getFollowRequest(store, fromAccountId, recipientId) && shownTo(store, recipientId, { ...notification, type: "follow" });
  }
  return shownTo(store, recipientId, notification, Date.now(), notificationHider(store, recipientId));
}

function tokenAlive(store: Store, subscription: PushSubscriptionRecord): boolean {
  const token = findToken(store, subscription.tokenHash);
  return !!token && !token.revokedAt && token.accountId === subscription.accountId;
}

export async function deliverPush(
  ctx: Pick<SubscriberContext, "store" | "config" | "job">,
  payload: EventPayloads["notification.created"],
  options: SendOptions = {},
): Promise<void> {
  const { store, config } = ctx;
  const { recipientId, notificationId } = payload;
  if (!hasPushSubscriptions(store, recipientId)) return;
  const notification = getNotification(store, recipientId, notificationId);
  if (!notification) return;
  const recipient = getUser(store, recipientId);
  const account = getAccount(store, recipientId);
  const from = getAccount(store, notification.fromAccountId);
  if (!recipient || !account || !from || recipient.disabled || account.suspended) return;
  const status = notification.statusId ? getStatus(store, notification.statusId) : null;
  if (status === undefined || !stillShown(store, notification)) return;

  const subscriptions = pushSubscriptionsOf(store, recipientId);
  const dead = subscriptions.filter((subscription) => !tokenAlive(store, subscription));
  const reached = ctx.job.attempt > 1 ? deliveredTo(store, notificationId) : new Set<number>();
  const due = subscriptions.filter((s) => !dead.includes(s) && !reached.has(s.id) && admits(store, s, notification));

  const vapid = due.length > 0 ? ensureVapidKeys(store) : null;
  const outcomes = await Promise.allSettled(
    due.map((subscription) => {
      const message = pushMessageJson(pushMessage(config, { subscription, notification, recipient, from, status }));
      return sendPush(config, vapid!, subscription, message, options);
    }),
  );

  const sent: number[] = [];
  const gone: PushSubscriptionRecord[] = [...dead];
  const failures: string[] = [];
  outcomes.forEach((outcome, i) => {
    const subscription = due[i]!;
    if (outcome.status === "rejected") {
      failures.push(String((outcome.reason as Error)?.message ?? outcome.reason));
      return;
    }
    const result: PushOutcome = outcome.value;
    if (result.kind === "sent") sent.push(subscription.id);
    else if (result.kind === "gone") gone.push(subscription);
    else log.warn("push not sent", { subscription: subscription.id, reason: result.reason });
  });
  for (const subscription of gone) {
    if (!dead.includes(subscription)) log.info("push subscription gone", { subscription: subscription.id });
  }

  const retry = failures.length > 0;
  if (gone.length > 0 || (retry && sent.length > 0) || (!retry && reached.size > 0)) {
    await store.write(() => {
      for (const subscription of gone) removePushSubscription(store, subscription.tokenHash, subscription.id);
      if (retry) markDelivered(store, notificationId, sent, Date.now());
      else forgetDelivered(store, notificationId);
    });
  }
  if (retry) throw new Error(`push delivery failed for ${failures.length} of ${due.length} subscriptions: ${failures[0]}`);
}
