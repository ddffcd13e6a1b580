// Blocking (spec: "The block entry is created and follows are removed at once. Clean-up is deferred.").
// One write creates the block and removes follows and follow requests in both directions, and enqueues
// the clean-up job; every interaction path checks the block record itself, so the block holds from the
// moment this answers, whether or not the job has run.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRecord } from "../../store/records.ts";
import { getBlock, insertBlock, removeBlock, removeFollow, removeFollowRequest } from "../../store/relationships.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";

/** Job raised by each new block: the deferred clean-up (jobs/handlers/block-created.ts). */
export const BLOCK_CREATED = "block.created";

export interface BlockCreated {
  blockId: string;
  blockerId: string;
  targetId: string;
}

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
    const payload: BlockCreated = { blockId: block.id, blockerId: viewer.id, targetId: target.id };
    deps.jobs.enqueue(BLOCK_CREATED, payload);
  });
  return relationshipWith(store, viewer.id, target.id);
}

/** Lifts the block; what the clean-up removed stays removed. Idempotent. */
export async function unblockAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => {
    removeBlock(deps.store, viewer.id, target.id);
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}
