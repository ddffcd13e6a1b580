// Who may see what. Every read path (single status, context, timelines, account statuses, search,
// notifications, streaming, ActivityPub) asks these functions; nothing else decides visibility.
import type { Store } from "../../store/db.ts";
import { isBlocking, isFollowing, isMuting } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { cachedAccount } from "../accounts/read.ts";
import { blocksDomainOf } from "../../store/user-domain-blocks.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/**
 * May `viewerId` (null = anonymous) see `status`? Private: author, followers and mentioned accounts.
 * Direct: author and mentioned accounts. Deleted statuses are invisible, and so is everything of a suspended
 * author and of an author who blocks the viewer. (A viewer who blocks the author may still open a status by
 * its id, as on Mastodon; lists and timelines leave such statuses out.)
 */
export function canSeeStatus(
  store: Store,
  viewerId: string | null,
  status: StatusRecord,
  blocksViewer: (authorId: string) => boolean = (authorId) => isBlocking(store, authorId, viewerId!),
  authorSuspended: (authorId: string) => boolean = (authorId) => cachedAccount(store, authorId)?.suspended === true,
): boolean {
  if (status.deletedAt) return false;
  // A suspended author's statuses are gone for everyone, the author included, until the suspension is lifted.
  if (authorSuspended(status.accountId)) return false;
  // A reblog is visible only while the status it wraps is.
  if (status.reblogOfId) {
    const original = getStatus(store, status.reblogOfId);
    if (!original || original.reblogOfId || !canSeeStatus(store, viewerId, original, blocksViewer, authorSuspended)) return false;
  }
  if (viewerId === status.accountId) return true;
  if (viewerId && blocksViewer(status.accountId)) return false;
  switch (status.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "private":
      return viewerId !== null && (status.mentionIds.includes(viewerId) || quotesViewer(status, viewerId) || isFollowing(store, viewerId, status.accountId));
    case "direct":
      return viewerId !== null && (status.mentionIds.includes(viewerId) || quotesViewer(status, viewerId));
  }
}

/** The author of a quoted status may see the quote (Mastodon mentions them silently). */
const quotesViewer = (status: StatusRecord, viewerId: string) => status.quote?.accountId === viewerId;

/**
 * Lists, threads and timelines also leave out what the viewer chose not to see: statuses (and reblogs of
 * statuses) by accounts the viewer blocks or mutes. A status opened by id is not subject to this.
 */
export function hiddenByViewer(
  store: Store,
  viewerId: string | null,
  status: StatusRecord,
  hides: (authorId: string) => boolean = (authorId) => viewerHides(store, viewerId!, authorId),
): boolean {
  if (!viewerId) return false;
  if (hides(status.accountId)) return true;
  if (status.reblogOfId) {
    const original = getStatus(store, status.reblogOfId);
    if (original && hides(original.accountId)) return true;
  }
  return false;
}

/** Does the viewer block or mute this account, or block its domain? (Readers of many statuses by few authors
 * keep the answer per author.) */
export function viewerHides(store: Store, viewerId: string, accountId: string): boolean {
  if (accountId === viewerId) return false;
  if (isBlocking(store, viewerId, accountId) || isMuting(store, viewerId, accountId)) return true;
  return blocksDomainOf(store, viewerId, cachedAccount(store, accountId));
}
