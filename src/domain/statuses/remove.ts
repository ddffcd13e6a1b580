// The deferred part of deleting a status (the `statuses.removal` subscriber of `status.deleted`, and
// `statuses.reblog_removal` of `reblog.removed`): reblogs of it, favourites, bookmarks, notifications, the
// link card, and finally the record itself. Every step only removes, and counters move
// only when the row they count is removed, so running twice is harmless.
// Work is done in bounded batches so that a popular status does not make one huge transaction.
// (Home timelines, media and federation join this list when they exist.)
import type { Store } from "../../store/db.ts";
import { notificationsBetween, notificationsOfStatus, removeNotification } from "../../store/notifications.ts";
import {
  getStatus,
  reblogIdOf,
  reblogIdsOfStatus,
  removeReblogRow,
  removeReplyRows,
  removeStatusRecord,
} from "../../store/statuses.ts";
import { removeCard } from "../../store/statuses-cards.ts";
import { removePoll } from "../../store/polls.ts";
import { removeStatusEdits } from "../../store/status-edits.ts";
import { bookmarksOfStatus, favouritesOfStatus, forgetFavourite, removeBookmark, removeFavouriteRows } from "../../store/statuses-interactions.ts";
import { detachReply, discardStatus } from "./delete.ts";
import type { NotificationType } from "../../model/notifications.ts";
import type { StatusRecord } from "../../model/statuses.ts";

const BATCH = 500;

/** Inside a write: the notification a favourite or reblog caused, once it no longer stands. */
export function removeInteractionNotification(store: Store, type: NotificationType, fromId: string, status: StatusRecord): void {
  for (const n of notificationsBetween(store, status.accountId, fromId)) {
    if (n.type === type && n.statusId === status.id) removeNotification(store, n);
  }
}

/** Inside a write: the last traces of a discarded reblog wrapper. */
function removeReblogWrapper(store: Store, wrapper: StatusRecord, now: number): void {
  if (!wrapper.deletedAt) discardStatus(store, wrapper, now);
  const original = wrapper.reblogOfId ? getStatus(store, wrapper.reblogOfId) : undefined;
  if (wrapper.reblogOfId) removeReblogRow(store, wrapper.reblogOfId, wrapper.id);
  // Unless the account reblogged it again meanwhile, its reblog notification goes too.
  if (original && !reblogIdOf(store, wrapper.accountId, original.id)) removeInteractionNotification(store, "reblog", wrapper.accountId, original);
  removeStatusRecord(store, wrapper.id);
}

/** Inside a write: removes up to BATCH rows that depend on `status`; returns how many it found. */
function removeDependents(store: Store, status: StatusRecord, now: number): number {
  let found = 0;
  for (const reblogId of reblogIdsOfStatus(store, status.id, BATCH)) {
    found++;
    const reblog = getStatus(store, reblogId);
    if (reblog) removeReblogWrapper(store, reblog, now);
    else removeReblogRow(store, status.id, reblogId);
  }
  for (const row of favouritesOfStatus(store, status.id, BATCH)) {
    found++;
    forgetFavourite(store, row);
    removeFavouriteRows(store, row);
  }
  for (const row of bookmarksOfStatus(store, status.id, BATCH)) {
    found++;
    removeBookmark(store, row);
  }
  return found;
}

export async function removeStatus(store: Store, statusId: string): Promise<void> {
  const status = getStatus(store, statusId);
  if (!status) return;
  while ((await store.write(() => removeDependents(store, status, Date.now()))) > 0) {
    // until every batch is done
  }
  await store.write(() => {
    const current = getStatus(store, statusId);
    if (!current) return;
    if (current.reblogOfId) return removeReblogWrapper(store, current, Date.now());
    if (!current.deletedAt) discardStatus(store, current, Date.now());
    // Done by the discard already, unless the status was deleted before replies were detached there.
    detachReply(store, current);
    removeReplyRows(store, current.id);
    for (const n of notificationsOfStatus(store, current.id)) removeNotification(store, n);
    removeCard(store, current.id);
    removePoll(store, current.id);
    removeStatusEdits(store, current.id);
    removeStatusRecord(store, current.id);
  });
}
