// Keeping feeds in step with the social graph (all run as jobs, all idempotent): a new follow back-fills the
// followed account's recent statuses into the follower's home; an ended follow or a block takes the other
// account's rows out of home and lists; a new list member is back-filled
// into the list feed. Read-time checks (policy.ts) already hide what these remove: the jobs only tidy up.
import type { Store } from "../../store/db.ts";
import { getList, isMember, listsOf } from "../../store/lists.ts";
import { isFollowing } from "../../store/relationships.ts";
import { pageAccountStatuses } from "../../store/statuses.ts";
import {
  accountStatusIds, homeHas, isLocalAccountId, listFeedKeys, putListEntry, removeHomeEntry, removeListEntry,
} from "../../store/timelines.ts";
import { addToHome, entryOf, FAN_OUT_BATCH, wantsInHome } from "./distribute.ts";

/** How many of an account's latest statuses a new follow (or list membership) brings in (Mastodon: 100). */
export const BACKFILL_LIMIT = 100;

/** `timelines.backfill_follow` and `…_accepted_follow`: the followed account's recent statuses into the follower's home. */
export async function backfillHome(store: Store, followerId: string, targetId: string): Promise<void> {
  if (!isLocalAccountId(store, followerId) || !isFollowing(store, followerId, targetId)) return;
  const statuses = pageAccountStatuses(store, targetId, { limit: BACKFILL_LIMIT }, (s) => !s.deletedAt && wantsInHome(store, s, followerId));
  // Oldest first, so that the reblog de-duplication sees the originals before later reblogs of them.
  await store.write(() => {
    for (const status of statuses.reverse()) if (!homeHas(store, followerId, status.id)) addToHome(store, followerId, status);
  });
}

/** In batches: removes the rows of `authorId`'s statuses from one feed. */
async function removeAuthorRows(store: Store, authorId: string, remove: (statusId: string) => void): Promise<void> {
  const ids = accountStatusIds(store, authorId);
  for (let i = 0; i < ids.length; i += FAN_OUT_BATCH) {
    const batch = ids.slice(i, i + FAN_OUT_BATCH);
    await store.write(() => batch.forEach(remove));
  }
}

/**
 * `authorId`'s rows out of `viewerId`'s home and lists. The unfollow already took the author off the lists
 * (store/relationships.ts removeFollow); its rows go from each list it is not on (again) now.
 */
export async function removeAuthorFromFeeds(store: Store, viewerId: string, authorId: string): Promise<void> {
  await removeAuthorRows(store, authorId, (id) => removeHomeEntry(store, viewerId, id));
  for (const list of listsOf(store, viewerId)) {
    if (isMember(store, list.id, authorId)) continue;
    await removeAuthorRows(store, authorId, (id) => removeListEntry(store, list.id, id));
  }
}

/** `timelines.forget_follow`, unless the follow was made again meanwhile. */
export async function forgetFollow(store: Store, followerId: string, targetId: string): Promise<void> {
  if (isFollowing(store, followerId, targetId)) return;
  await removeAuthorFromFeeds(store, followerId, targetId);
}

/** Block clean-up step (BLOCK_CLEANUP_STEPS): each account's rows out of the other's home and lists. */
export async function removeFeedsAcrossBlock(store: Store, blockerId: string, targetId: string): Promise<void> {
  await removeAuthorFromFeeds(store, blockerId, targetId);
  await removeAuthorFromFeeds(store, targetId, blockerId);
}

/** `timelines.backfill_list_member`: the member's recent statuses into the list feed. */
export async function backfillList(store: Store, ownerId: string, listId: string, accountId: string): Promise<void> {
  if (!getList(store, ownerId, listId) || !isMember(store, listId, accountId)) return;
  const own = accountId === ownerId;
  const statuses = pageAccountStatuses(store, accountId, { limit: BACKFILL_LIMIT }, (s) => !s.deletedAt && (own || wantsInHome(store, s, ownerId)));
  await store.write(() => {
    for (const status of statuses) putListEntry(store, listId, status.id, entryOf(status));
  });
}

/** `timelines.remove_list_feed`: the feed rows of a deleted list, in batches. */
export async function removeListFeed(store: Store, listId: string): Promise<void> {
  for (;;) {
    const ids = listFeedKeys(store, listId, FAN_OUT_BATCH);
    if (ids.length === 0) return;
    await store.write(() => ids.forEach((id) => removeListEntry(store, listId, id)));
  }
}
