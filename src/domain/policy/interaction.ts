// Who may reply to, favourite, reblog, bookmark, pin or delete a status. Each check throws the error the
// client gets (404 when the status is not visible, 403 when visible but not allowed, 422 for the spec's
// private-reblog rule) and returns nothing when the action may go ahead. Blocks are read synchronously, so
// a block takes effect even while its clean-up job has not run.
import { NotFound, NotPermitted, Unprocessable } from "../../lib/errors.ts";
import type { Store } from "../../store/db.ts";
import { isBlocking } from "../../store/relationships.ts";
import { canSeeStatus } from "./visibility.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export const IN_REPLY_NOT_FOUND = "The post you are trying to reply to does not appear to exist.";

export function assertVisible(store: Store, viewerId: string | null, status: StatusRecord | undefined): asserts status is StatusRecord {
  if (!status || !canSeeStatus(store, viewerId, status)) throw new NotFound();
}

export function assertCanReply(store: Store, viewerId: string, parent: StatusRecord | undefined): asserts parent is StatusRecord {
  if (!parent || !canSeeStatus(store, viewerId, parent)) throw new NotFound(IN_REPLY_NOT_FOUND);
}

/** Favourite and bookmark: the status must be visible, and the viewer must not block its author. */
export function assertCanFavourite(store: Store, viewerId: string, status: StatusRecord | undefined): asserts status is StatusRecord {
  assertVisible(store, viewerId, status);
  if (isBlocking(store, viewerId, status.accountId)) throw new NotPermitted();
}

/** Reblog: visible; never a direct status (403); never a private one (the spec's generic 422). */
export function assertCanReblog(store: Store, viewerId: string, status: StatusRecord | undefined): asserts status is StatusRecord {
  assertVisible(store, viewerId, status);
  if (status.visibility === "direct") throw new NotPermitted();
  if (status.visibility === "private") throw new Unprocessable("Validation failed: Reblog of a private status is not allowed");
  if (isBlocking(store, viewerId, status.accountId)) throw new NotPermitted();
}

/**
 * Delete: the author, or a moderator (the rule). Anyone else gets 404 whether or not they can see the
 * status, as Mastodon answers (its destroy looks the id up among the caller's own statuses only).
 */
export function assertCanDelete(viewerId: string, isModerator: boolean, status: StatusRecord | undefined): asserts status is StatusRecord {
  if (!status || status.deletedAt) throw new NotFound();
  if (status.accountId !== viewerId && !isModerator) throw new NotFound();
}
