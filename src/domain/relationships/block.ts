// Blocking (spec: "The block entry is created and follows are removed at once. Clean-up is deferred.").
// One write creates the block and removes follows and follow requests in both directions, and enqueues
// the clean-up job; every interaction path checks the block record itself, so the block holds from the
// moment this answers, whether or not the job has run.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRecord } from "../../store/records.ts";
import { getBlock, insertBlock, removeBlock, removeFollow, removeFollowRequest } from "../../store/relationships.ts";
import { recordEvent, type EventPayloads } from "../events.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";

export type BlockCreated = EventPayloads["block.created"];

export async function blockAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const { store } = deps;
  const target = findTargetAccount(store, rawTargetId, { allowSuspended: true });
  if (target.id === viewer.id) throw new NotPermitted();
  await store.write(() => {
    removeFollow(store, viewer.id, target.id);
    removeFollow(store, target.id, viewer.id);
    removeFollowRequest(store, viewer.id, target.id);
    removeFollowRequest(store, target.id, viewer.id);
    withdrawFollowNotifications(store, viewer.id, target.id);
    withdrawFollowNotifications(store, target.id, viewer.id);
    if (getBlock(store, viewer.id, target.id)) return;
    const now = Date.now();
    const block = { v: 1 as const, id: newId(now), accountId: viewer.id, targetId: target.id, createdAt: now };
    insertBlock(store, block);
    // The deferred clean-up is a subscriber of this event (relationships.block_cleanup).
    recordEvent(deps, "block.created", { blockId: block.id, blockerId: viewer.id, targetId: target.id }, "local", now);
  });
  return relationshipWith(store, viewer.id, target.id);
}

/** Lifts the block; what the clean-up removed stays removed. Idempotent. */
export async function unblockAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => {
    if (removeBlock(deps.store, viewer.id, target.id)) recordEvent(deps, "block.removed", { blockerId: viewer.id, targetId: target.id });
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}
