// Blocking (spec: "The block entry is created and follows are removed at once. Clean-up is deferred.").
// One write creates the block and removes follows and follow requests in both directions, and enqueues
// the clean-up job; every interaction path checks the block record itself, so the block holds from the
// moment this answers, whether or not the job has run.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { getBlock, insertBlock, removeBlock, removeFollow, removeFollowRequest } from "../../store/relationships.ts";
import { recordEvent, type EventPayloads, type Origin } from "../events.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";
import { blockUri, blockUriOf } from "./activity-uris.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export type BlockCreated = EventPayloads["block.created"];

export async function blockAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await block(deps, viewer, target);
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** The core, for any actor (`uri`: a remote actor's Block id, kept to match its Undo). Idempotent. */
export async function block(deps: Deps, actor: AccountRecord, target: AccountRecord, origin: Origin = "local", uri?: string): Promise<void> {
  const { store } = deps;
  if (target.id === actor.id) throw new NotPermitted();
  await store.write(() => {
    removeFollow(store, actor.id, target.id);
    removeFollow(store, target.id, actor.id);
    removeFollowRequest(store, actor.id, target.id);
    removeFollowRequest(store, target.id, actor.id);
    withdrawFollowNotifications(store, actor.id, target.id);
    withdrawFollowNotifications(store, target.id, actor.id);
    if (getBlock(store, actor.id, target.id)) return;
    const now = Date.now();
    const id = newId(now);
    const kept = uri ?? (actor.domain === null ? blockUri(actor, target.id, id) : undefined);
    const record = { v: 1 as const, id, accountId: actor.id, targetId: target.id, createdAt: now, ...(kept ? { uri: kept } : {}) };
    insertBlock(store, record);
    // The deferred clean-up is a subscriber of this event (relationships.block_cleanup).
    recordEvent(deps, "block.created", { blockId: record.id, blockerId: actor.id, targetId: target.id }, origin, now);
  });
}

/** Lifts the block; what the clean-up removed stays removed. Idempotent. */
export async function unblockAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await unblock(deps, viewer, target);
  return relationshipWith(deps.store, viewer.id, target.id);
}

export async function unblock(deps: Deps, actor: AccountRecord, target: AccountRecord, origin: Origin = "local"): Promise<void> {
  await deps.store.write(() => {
    const removed = removeBlock(deps.store, actor.id, target.id);
    if (removed) recordEvent(deps, "block.removed", { blockerId: actor.id, targetId: target.id, uri: blockUriOf(actor, removed) }, origin);
  });
}
