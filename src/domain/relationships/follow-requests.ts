// Answering follow requests. Authorising turns the request into a follow (keeping its options) and tells
// the owner with a `follow` notification; rejecting drops it. A request that is no longer pending is 404,
// except that authorising someone who already follows you answers the relationship as it stands.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRecord } from "../../store/records.ts";
import { isFollowing, putFollow, removeFollowRequest } from "../../store/relationships.ts";
import { notify } from "../notifications/notify.ts";
import { FOLLOW_CREATED, type FollowJob } from "../timelines/jobs.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";

export async function authorizeFollowRequest(deps: Deps, viewer: AccountRecord, rawRequesterId: string): Promise<RelationshipFacts> {
  const { store } = deps;
  const requester = findTargetAccount(store, rawRequesterId, { allowSuspended: true });
  await store.write(() => {
    const request = removeFollowRequest(store, requester.id, viewer.id);
    if (!request) {
      if (isFollowing(store, requester.id, viewer.id)) return;
      throw new NotFound();
    }
    const now = Date.now();
    putFollow(store, { ...request, id: newId(now), createdAt: now });
    notify(store, { type: "follow", recipientId: viewer.id, fromAccountId: requester.id }, now);
    deps.jobs.enqueue(FOLLOW_CREATED, { followerId: requester.id, targetId: viewer.id } satisfies FollowJob);
  });
  return relationshipWith(store, viewer.id, requester.id);
}

export async function rejectFollowRequest(deps: Deps, viewer: AccountRecord, rawRequesterId: string): Promise<RelationshipFacts> {
  const { store } = deps;
  const requester = findTargetAccount(store, rawRequesterId, { allowSuspended: true });
  await store.write(() => {
    if (!removeFollowRequest(store, requester.id, viewer.id)) throw new NotFound();
  });
  return relationshipWith(store, viewer.id, requester.id);
}
