// Answering follow requests. Authorising turns the request into a follow (keeping its options) and tells
// the owner with a `follow` notification; rejecting drops it. A request that is no longer pending is 404,
// except that authorising someone who already follows you answers the relationship as it stands. An
// account that stops being locked accepts every pending request at once (Mastodon's UpdateAccountService).
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import { pageFollowRequests } from "../../store/relationship-lists.ts";
import { getFollowRequest, isFollowing, putFollow, removeFollowRequest } from "../../store/relationships.ts";
import { notify } from "../notifications/notify.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { recordEvent, type Origin } from "../events.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { FollowRecord } from "../../model/relationships.ts";

/** Inside a write: the pending request becomes a follow with its options; the followed account is told. */
export function acceptFollowRequest(deps: Deps, request: FollowRecord, now = Date.now(), origin: Origin = "local"): void {
  const { store } = deps;
  removeFollowRequest(store, request.accountId, request.targetId);
  putFollow(store, { ...request, id: newId(now), createdAt: now });
  // A remote account accepting a local one's request is told nothing here: its own server notifies it.
  if (getAccount(store, request.targetId)?.domain === null) {
    notify(deps, { type: "follow", recipientId: request.targetId, fromAccountId: request.accountId }, now);
  }
  recordEvent(deps, "follow.accepted", { followerId: request.accountId, targetId: request.targetId }, origin, now);
}

/** Inside a write, when `accountId` is unlocked: accepts its pending requests, except from silenced accounts
 * (whose follows always wait for an answer). */
export function acceptPendingFollowRequests(deps: Deps, accountId: string): void {
  const { store } = deps;
  const now = Date.now();
  // Oldest first, so the follows keep the order of the requests.
  for (const row of pageFollowRequests(store, accountId, { limit: Infinity }).reverse()) {
    const request = getFollowRequest(store, row.accountId, accountId);
    if (request && getAccount(store, row.accountId)?.silenced === false) acceptFollowRequest(deps, request, now);
  }
}

export async function authorizeFollowRequest(deps: Deps, viewer: AccountRecord, rawRequesterId: string): Promise<RelationshipFacts> {
  const requester = findTargetAccount(deps.store, rawRequesterId, { allowSuspended: true });
  await authorize(deps, viewer, requester);
  return relationshipWith(deps.store, viewer.id, requester.id);
}

/** The core: `owner` lets `requester` follow. 404 when nothing is pending (unless it already follows). */
export async function authorize(deps: Deps, owner: AccountRecord, requester: AccountRecord, origin: Origin = "local"): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const request = getFollowRequest(store, requester.id, owner.id);
    if (request) return acceptFollowRequest(deps, request, Date.now(), origin);
    if (!isFollowing(store, requester.id, owner.id)) throw new NotFound();
  });
}

export async function rejectFollowRequest(deps: Deps, viewer: AccountRecord, rawRequesterId: string): Promise<RelationshipFacts> {
  const requester = findTargetAccount(deps.store, rawRequesterId, { allowSuspended: true });
  await reject(deps, viewer, requester);
  return relationshipWith(deps.store, viewer.id, requester.id);
}

/** The core: `owner` turns `requester`'s pending request down. 404 when nothing is pending. */
export async function reject(deps: Deps, owner: AccountRecord, requester: AccountRecord, origin: Origin = "local"): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const request = removeFollowRequest(store, requester.id, owner.id);
    if (!request) throw new NotFound();
    withdrawFollowNotifications(store, requester.id, owner.id);
    recordEvent(deps, "follow.rejected", { requesterId: requester.id, targetId: owner.id, uri: request.uri }, origin);
  });
}
