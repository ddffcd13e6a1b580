// Who may see what. Every read path (single status, context, timelines, account statuses, search,
// notifications, streaming, ActivityPub) asks these functions; nothing else decides visibility.
import type { Store } from "../../store/db.ts";
import type { StatusRecord } from "../../store/records.ts";
import { isBlocking, isFollowing } from "../../store/relationships.ts";

/**
 * May `viewerId` (null = anonymous) see `status`? Private: author, followers and mentioned accounts.
 * Direct: author and mentioned accounts. Deleted statuses are invisible, and so is everything of an author
 * who blocks the viewer. (A viewer who blocks the author may still open a status by its id, as on Mastodon;
 * lists and timelines leave such statuses out.)
 */
export function canSeeStatus(store: Store, viewerId: string | null, status: StatusRecord): boolean {
  if (status.deletedAt) return false;
  if (viewerId === status.accountId) return true;
  if (viewerId && isBlocking(store, status.accountId, viewerId)) return false;
  switch (status.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "private":
      return viewerId !== null && (status.mentionIds.includes(viewerId) || isFollowing(store, viewerId, status.accountId));
    case "direct":
      return viewerId !== null && status.mentionIds.includes(viewerId);
  }
}
