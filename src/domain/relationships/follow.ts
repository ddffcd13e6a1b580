// Following: an unlocked account is followed at once (and told so with a `follow` notification); a locked
// one gets a follow request instead, which its owner hears about by e-mail (never as a notification). So
// does any account followed by a silenced one, as on Mastodon.
// Calling follow again only changes the options given. Unfollowing also withdraws a pending request.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRecord, FollowRecord } from "../../store/records.ts";
import {
  blockedEitherWay, getFollow, getFollowRequest, putFollow, putFollowRequest, removeFollow, removeFollowRequest,
} from "../../store/relationships.ts";
import { notify } from "../notifications/notify.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { recordEvent } from "../events.ts";
import { acceptFollowRequest } from "./follow-requests.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";


export interface FollowOptions {
  /** Show the target's reblogs in the home timeline (default true). */
  reblogs?: boolean;
  /** Notify on each new status of the target (default false). */
  notify?: boolean;
  /** Only these languages in the home timeline; null or [] = all. */
  languages?: string[] | null;
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
  const { store } = deps;
  const target = findTargetAccount(store, rawTargetId);
  if (target.id === viewer.id) throw new NotPermitted();
  await store.write(() => {
    // Guards first, before anything is written: a block may have committed since the request began.
    if (blockedEitherWay(store, viewer.id, target.id)) throw new NotPermitted();
    const follow = getFollow(store, viewer.id, target.id);
    if (follow) return putFollow(store, withOptions(follow, options));
    const asks = target.locked || viewer.silenced;
    const request = getFollowRequest(store, viewer.id, target.id);
    // A request to an account unlocked since is accepted now, as unlocking accepts the pending ones.
    if (request) return asks ? putFollowRequest(store, withOptions(request, options)) : acceptFollowRequest(deps, withOptions(request, options));
    const now = Date.now();
    const fresh = withOptions(
      { v: 1, id: newId(now), accountId: viewer.id, targetId: target.id, reblogs: true, notify: false, languages: null, createdAt: now, uri: null },
      options,
    );
    if (asks) {
      putFollowRequest(store, fresh);
      recordEvent(deps, "follow.requested", { requestId: fresh.id, requesterId: viewer.id, targetId: target.id }, "local", now);
    } else {
      putFollow(store, fresh);
      notify(deps, { type: "follow", recipientId: target.id, fromAccountId: viewer.id }, now);
      recordEvent(deps, "follow.created", { followerId: viewer.id, targetId: target.id }, "local", now);
    }
  });
  return relationshipWith(store, viewer.id, target.id);
}

/** Stops following, or withdraws the pending request. Idempotent. */
export async function unfollowAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => {
    const followed = removeFollow(deps.store, viewer.id, target.id);
    const requested = removeFollowRequest(deps.store, viewer.id, target.id);
    if (followed || requested) recordEvent(deps, "follow.removed", { followerId: viewer.id, targetId: target.id });
    withdrawFollowNotifications(deps.store, viewer.id, target.id);
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** Makes `rawTargetId` stop following the viewer. Idempotent. */
export async function removeFromFollowers(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => {
    if (removeFollow(deps.store, target.id, viewer.id)) recordEvent(deps, "follow.removed", { followerId: target.id, targetId: viewer.id });
    withdrawFollowNotifications(deps.store, target.id, viewer.id);
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}
