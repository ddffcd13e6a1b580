// Notifications that belong to a relationship go with it, as Mastodon destroys a follow's notification with
// the follow: after an unfollow, a removal from followers, a rejected request or a block, a later follow
// notifies (and streams) again instead of being taken for a duplicate of the stale one.
import type { Store } from "../../store/db.ts";
import { notificationsBetween, removeNotification } from "../../store/notifications.ts";

const FOLLOW_TYPES = new Set(["follow", "follow_request"]);

/** Inside a write: removes the follow and follow-request notifications `targetId` got from `followerId`. */
export function withdrawFollowNotifications(store: Store, followerId: string, targetId: string): void {
  for (const n of notificationsBetween(store, targetId, followerId)) {
    if (FOLLOW_TYPES.has(n.type)) removeNotification(store, n);
  }
}
