// Following: an unlocked account is followed at once (and told so with a `follow` notification); a locked
// one gets a follow request instead, which its owner hears about by e-mail (never as a notification). So
// does any account followed by a silenced one, as on Mastodon.
// Calling follow again only changes the options given. Unfollowing also withdraws a pending request.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import {
  blockedEitherWay, getFollow, getFollowRequest, putFollow, putFollowRequest, removeFollow, removeFollowRequest,
} from "../../store/relationships.ts";
import { notify } from "../notifications/notify.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { recordEvent, type Origin } from "../events.ts";
import { acceptFollowRequest } from "./follow-requests.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";
import { blocksDomainOf } from "../../store/user-domain-blocks.ts";
import { followUri, followUriOf } from "./activity-uris.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { FollowRecord } from "../../model/relationships.ts";


export interface FollowOptions {
  /** Show the target's reblogs in the home timeline (default true). */
  reblogs?: boolean;
  /** Notify on each new status of the target (default false). */
  notify?: boolean;
  /** Only these languages in the home timeline; null or [] = all. */
  languages?: string[] | null;
  /** The ActivityPub id of a remote actor's Follow (src/federation/inbox.ts), kept to answer it. */
  uri?: string | null;
  /** Follow a locked local account without asking: a follower carried over by a move to it (accounts/move-followers.ts). */
  bypassLocked?: boolean;
}

function withOptions(record: FollowRecord, options: FollowOptions): FollowRecord {
  return {
    ...record,
    reblogs: options.reblogs ?? record.reblogs,
    notify: options.notify ?? record.notify,
    languages: options.languages === undefined ? record.languages : normaliseLanguages(options.languages),
  };
}

function normaliseLanguages(languages: string[] | null): string[] | null {
  const list = [...new Set((languages ?? []).map((l) => l.trim().toLowerCase()).filter(Boolean))];
  return list.length ? list : null;
}

export async function followAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string, options: FollowOptions): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId);
  await follow(deps, viewer, target, { ...options, bypassLocked: false });
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** The core, for any actor: follows, asks (locked target, or a silenced actor), or updates the options. */
export async function follow(deps: Deps, actor: AccountRecord, target: AccountRecord, options: FollowOptions, origin: Origin = "local"): Promise<void> {
  const { store } = deps;
  // Nobody follows an account that moved away (Mastodon: 403 through the API, a Reject over federation).
  if (target.id === actor.id || target.movedToAccountId) throw new NotPermitted();
  await store.write(() => {
    // Guards first, before anything is written: a block may have committed since the request began.
    if (blockedEitherWay(store, actor.id, target.id)) throw new NotPermitted();
    // Nor to an account of a domain the actor blocks (Mastodon: 403).
    if (blocksDomainOf(store, actor.id, target)) throw new NotPermitted();
    const existing = getFollow(store, actor.id, target.id);
    if (existing) return putFollow(store, withOptions(existing, options));
    // A remote account answers with Accept or Reject (src/federation): requested until then.
    const asks = (target.locked && !options.bypassLocked) || actor.silenced || target.domain !== null;
    const request = getFollowRequest(store, actor.id, target.id);
    // A request to an account unlocked since is accepted now, as unlocking accepts the pending ones.
    if (request) return asks ? putFollowRequest(store, withOptions(request, options)) : acceptFollowRequest(deps, withOptions(request, options));
    const now = Date.now();
    const id = newId(now);
    // A remote actor's Follow keeps its id; a local one's gets its own, sent and answered by it.
    const uri = options.uri ?? (actor.domain === null ? followUri(actor, target.id, id) : null);
    const fresh = withOptions({ v: 1, id, accountId: actor.id, targetId: target.id, reblogs: true, notify: false, languages: null, createdAt: now, uri }, options);
    if (asks) {
      putFollowRequest(store, fresh);
      recordEvent(deps, "follow.requested", { requestId: fresh.id, requesterId: actor.id, targetId: target.id }, origin, now);
    } else {
      putFollow(store, fresh);
      notify(deps, { type: "follow", recipientId: target.id, fromAccountId: actor.id }, now);
      recordEvent(deps, "follow.created", { followerId: actor.id, targetId: target.id }, origin, now);
    }
  });
}

/** Stops following, or withdraws the pending request. Idempotent. */
export async function unfollowAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await unfollow(deps, viewer, target);
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** The core: `follower` no longer follows (nor asks to follow) `target`. */
export async function unfollow(deps: Deps, follower: AccountRecord, target: AccountRecord, origin: Origin = "local"): Promise<void> {
  await deps.store.write(() => {
    const followed = removeFollow(deps.store, follower.id, target.id);
    const requested = removeFollowRequest(deps.store, follower.id, target.id);
    const removed = followed ?? requested;
    if (removed) recordEvent(deps, "follow.removed", { followerId: follower.id, targetId: target.id, uri: followUriOf(follower, removed, !followed) }, origin);
    withdrawFollowNotifications(deps.store, follower.id, target.id);
  });
}

/** Makes `rawTargetId` stop following the viewer (a pending request of theirs stays). Idempotent. */
export async function removeFromFollowers(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await removeFollower(deps, viewer, target);
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** The core: `owner` drops `follower` from its followers. */
export async function removeFollower(deps: Deps, owner: AccountRecord, follower: AccountRecord): Promise<void> {
  await deps.store.write(() => {
    const removed = removeFollow(deps.store, follower.id, owner.id);
    if (removed) recordEvent(deps, "follow.removed", { followerId: follower.id, targetId: owner.id, uri: followUriOf(follower, removed, false) });
    withdrawFollowNotifications(deps.store, follower.id, owner.id);
  });
}
