// Who may be suggested to whom. Checked at every request, on every candidate of every source (staff picks
// too), never cached: a follow, block, mute or dismissal takes effect on the next request.
import type { Store } from "../../store/db.ts";
import { getUser } from "../../store/accounts.ts";
import { getFollowRequest, isBlocking, isFollowing, isMuting } from "../../store/relationships.ts";
import { isDismissed } from "../../store/suggestions.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/**
 * Why an account cannot be suggested to anyone (empty when it can): Mastodon suggests only discoverable
 * accounts that are not suspended, limited (silenced) or memorial, and a local account only while its user is
 * approved, confirmed and not disabled.
 */
export function unsuggestableReasons(store: Store, account: AccountRecord): string[] {
  const reasons: string[] = [];
  if (account.suspended) reasons.push("suspended");
  if (account.silenced) reasons.push("limited");
  if (account.memorial) reasons.push("memorial");
  if (!account.discoverable) reasons.push("not discoverable");
  if (account.domain === null) {
    const user = getUser(store, account.id);
    if (!user) reasons.push("no user");
    else {
      if (!user.approved) reasons.push("not approved");
      if (user.confirmedAt === null) reasons.push("e-mail not confirmed");
      if (user.disabled) reasons.push("disabled");
    }
  }
  return reasons;
}

/** May `account` be suggested to `viewerId`? Not the viewer, nobody followed or asked for, blocked either
 * way, muted or dismissed, and nobody who cannot be suggested at all. */
export function suggestibleTo(store: Store, viewerId: string, account: AccountRecord, now: number): boolean {
  const id = account.id;
  if (id === viewerId) return false;
  if (isFollowing(store, viewerId, id) || getFollowRequest(store, viewerId, id)) return false;
  if (isBlocking(store, viewerId, id) || isBlocking(store, id, viewerId) || isMuting(store, viewerId, id, now)) return false;
  if (isDismissed(store, viewerId, id)) return false;
  return unsuggestableReasons(store, account).length === 0;
}
