// `status` notifications (follow option `notify=true`): each follower who asked hears of every new post of
// that account that reaches their home, as Mastodon's: not reblogs, not replies to others, and nothing the
// follower may not see or would not get in their home. Run by the `notifications.subscribed_status` subscriber;
// idempotent (notify skips a notification that exists).
import type { SubscriberContext } from "../events.ts";
import { getStatus } from "../../store/statuses.ts";
import { notifyingFollowerIds } from "../../store/relationships.ts";
import { isLocalAccountId } from "../../store/timelines.ts";
import { wantsInHome } from "../timelines/distribute.ts";
import { notify } from "./notify.ts";

/** Notifications written per transaction. */
const BATCH = 500;

export async function notifySubscribers(ctx: Pick<SubscriberContext, "store" | "jobs">, statusId: string): Promise<void> {
  const { store } = ctx;
  const status = getStatus(store, statusId);
  if (!status || status.deletedAt || status.reblogOfId) return;
  if (status.inReplyToId && status.inReplyToAccountId !== status.accountId) return;
  const followerIds = notifyingFollowerIds(store, status.accountId).filter((id) => isLocalAccountId(store, id));
  for (let i = 0; i < followerIds.length; i += BATCH) {
    const batch = followerIds.slice(i, i + BATCH);
    await store.write(() => {
      if (getStatus(store, statusId)?.deletedAt !== null) return;
      for (const followerId of batch) {
        if (!wantsInHome(store, status, followerId)) continue;
        notify(ctx, { type: "status", recipientId: followerId, fromAccountId: status.accountId, statusId: status.id });
      }
    });
  }
}
