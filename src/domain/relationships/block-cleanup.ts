// The deferred part of a block (spec rule 3). The block itself, and the removal of follows and follow
// requests, happened in the request; every read and interaction path checks the block record, so nothing
// here is needed for correctness, only for tidiness. Idempotent: every step only removes.
import type { Store } from "../../store/db.ts";
import { notificationsBetween, removeNotification } from "../../store/notifications.ts";
import { isBlocking } from "../../store/relationships.ts";
import { getStatus, pageAccountStatuses } from "../../store/statuses.ts";
import { pageFavourites } from "../../store/statuses-interactions.ts";
import { removeFavourite } from "../statuses/favourite.ts";
import { removeStatus } from "../statuses/remove.ts";
import { removeFeedsAcrossBlock } from "../timelines/follows.ts";
import type { BlockCreated } from "./block.ts";

/** One clean-up step between the two accounts of a block, run in order by cleanUpAfterBlock. Features
 * with data across accounts append their step to BLOCK_CLEANUP_STEPS (timelines: removeFeedsAcrossBlock). */
export type BlockCleanupStep = (store: Store, blockerId: string, targetId: string) => Promise<void>;

/** Notifications either account received from the other. */
export async function removeNotificationsBetween(store: Store, blockerId: string, targetId: string): Promise<void> {
  await store.write(() => {
    for (const n of notificationsBetween(store, blockerId, targetId)) removeNotification(store, n);
    for (const n of notificationsBetween(store, targetId, blockerId)) removeNotification(store, n);
  });
}

const everything = { limit: Infinity };

/** `fromId`'s favourites and reblogs of `authorId`'s statuses, removed as an unfavourite / unreblog would. */
async function removeInteractionsOf(store: Store, fromId: string, authorId: string): Promise<void> {
  const byAuthor = (statusId: string) => getStatus(store, statusId)?.accountId === authorId;
  for (const row of pageFavourites(store, fromId, everything, byAuthor)) await removeFavourite(store, row);
  const reblogs = pageAccountStatuses(store, fromId, everything, (s) => s.reblogOfId !== null && !s.deletedAt && byAuthor(s.reblogOfId));
  for (const wrapper of reblogs) await removeStatus(store, wrapper.id);
}

/** Favourites and reblogs across the block, in both directions. */
export async function removeInteractionsAcross(store: Store, blockerId: string, targetId: string): Promise<void> {
  await removeInteractionsOf(store, targetId, blockerId);
  await removeInteractionsOf(store, blockerId, targetId);
}

export const BLOCK_CLEANUP_STEPS: BlockCleanupStep[] = [removeInteractionsAcross, removeNotificationsBetween, removeFeedsAcrossBlock];

/** Runs every step, unless the block was lifted before the job got to it. */
export async function cleanUpAfterBlock(store: Store, event: BlockCreated): Promise<void> {
  if (!isBlocking(store, event.blockerId, event.targetId)) return;
  for (const step of BLOCK_CLEANUP_STEPS) await step(store, event.blockerId, event.targetId);
}
