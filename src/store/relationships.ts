// The social graph: follows, follow requests, blocks, mutes, notes. Reads here are the guards every
// interaction checks synchronously; writes keep each record and its paging index in step.
import { getList, ownerListsContaining, removeMember } from "./lists.ts";
import { getEndorsement } from "./endorsements.ts";
import { blocksDomainOf } from "./user-domain-blocks.ts";
import { END, type Store } from "./handle.ts";
import { putAccount } from "./accounts.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { BlockRecord, FollowRecord, MuteRecord, RelationshipFacts } from "../model/relationships.ts";

export function getFollow(store: Store, followerId: string, targetId: string): FollowRecord | undefined {
  return store.db.follows.get([followerId, targetId]);
}

export function isFollowing(store: Store, followerId: string, targetId: string): boolean {
  return store.db.follows.doesExist([followerId, targetId]);
}

export function getFollowRequest(store: Store, requesterId: string, targetId: string): FollowRecord | undefined {
  return store.db.followRequests.get([requesterId, targetId]);
}

export function getBlock(store: Store, blockerId: string, targetId: string): BlockRecord | undefined {
  return store.db.blocks.get([blockerId, targetId]);
}

export function isBlocking(store: Store, blockerId: string, targetId: string): boolean {
  return store.db.blocks.doesExist([blockerId, targetId]);
}

/** Does `blockerId` block anyone at all? */
export function blocksAnyone(store: Store, blockerId: string): boolean {
  for (const _ of store.db.blocks.getKeys({ start: [blockerId], end: [blockerId, END], limit: 1 })) return true;
  return false;
}

/** Either account blocks the other. */
export function blockedEitherWay(store: Store, a: string, b: string): boolean {
  return isBlocking(store, a, b) || isBlocking(store, b, a);
}

/** The mute, unless it has expired (expired mutes are cleaned up lazily). */
export function getMute(store: Store, muterId: string, targetId: string, now = Date.now()): MuteRecord | undefined {
  const mute: MuteRecord | undefined = store.db.mutes.get([muterId, targetId]);
  if (!mute || (mute.expiresAt !== null && mute.expiresAt <= now)) return undefined;
  return mute;
}

/** The stored mute, expired or not. */
export function getMuteRecord(store: Store, muterId: string, targetId: string): MuteRecord | undefined {
  return store.db.mutes.get([muterId, targetId]);
}

export function isMuting(store: Store, muterId: string, targetId: string, now = Date.now()): boolean {
  return getMute(store, muterId, targetId, now) !== undefined;
}

export function getAccountNote(store: Store, accountId: string, targetId: string): string {
  return store.db.accountNotes.get([accountId, targetId]) ?? "";
}

/** Pending follow requests to `targetId` (CredentialAccount.source.follow_requests_count). */
export function countFollowRequests(store: Store, targetId: string, cap = Infinity): number {
  let n = 0;
  for (const _ of store.db.followRequestsIndex.getKeys({ start: [targetId], end: [targetId, END] })) {
    if (++n >= cap) break;
  }
  return n;
}

/** Ids of the accounts following `targetId` (home-timeline fan-out, delivery). */
export function* followerIdsOf(store: Store, targetId: string): Iterable<string> {
  for (const { value } of store.db.followersIndex.getRange({ start: [targetId], end: [targetId, END] })) yield value as string;
}

/** Ids of the accounts with a pending follow request to `targetId`. */
export function* requesterIdsOf(store: Store, targetId: string): Iterable<string> {
  for (const { value } of store.db.followRequestsIndex.getRange({ start: [targetId], end: [targetId, END] })) yield value as string;
}

/** Ids of the accounts `requesterId` has asked to follow (pending requests). */
export function* requestedIdsOf(store: Store, requesterId: string): Iterable<string> {
  for (const key of store.db.followRequests.getKeys({ start: [requesterId], end: [requesterId, END] })) yield (key as string[])[1]!;
}

/** Ids of the accounts `followerId` follows (search's `following=true`). */
export function* followingIdsOf(store: Store, followerId: string): Iterable<string> {
  for (const { value } of store.db.followingIndex.getRange({ start: [followerId], end: [followerId, END] })) yield value as string;
}

export function relationshipFacts(store: Store, viewerId: string, targetId: string, now = Date.now()): RelationshipFacts {
  return {
    viewerId,
    targetId,
    following: getFollow(store, viewerId, targetId),
    followedBy: isFollowing(store, targetId, viewerId),
    requested: getFollowRequest(store, viewerId, targetId),
    requestedBy: store.db.followRequests.doesExist([targetId, viewerId]),
    blocking: isBlocking(store, viewerId, targetId),
    blockedBy: isBlocking(store, targetId, viewerId),
    mute: getMute(store, viewerId, targetId, now),
    note: getAccountNote(store, viewerId, targetId),
    endorsed: getEndorsement(store, viewerId, targetId) !== undefined && isFollowing(store, viewerId, targetId),
    domainBlocking: blocksDomainOf(store, viewerId, store.db.accounts.get(targetId) as AccountRecord | undefined),
  };
}

// ---- Writes: each must run inside `store.write(...)`. ----

/** followersCount / followingCount are stored, not counted: every follow insert and removal adjusts them. */
function adjustFollowCounts(store: Store, followerId: string, targetId: string, delta: 1 | -1): void {
  const follower: AccountRecord | undefined = store.db.accounts.get(followerId);
  if (follower) putAccount(store, { ...follower, followingCount: Math.max(0, follower.followingCount + delta) });
  const target: AccountRecord | undefined = store.db.accounts.get(targetId);
  if (target) putAccount(store, { ...target, followersCount: Math.max(0, target.followersCount + delta) });
}

/** A new follow (or replaces the options of an existing one without touching the counters). */
export function putFollow(store: Store, follow: FollowRecord): void {
  const existing = getFollow(store, follow.accountId, follow.targetId);
  if (existing && existing.id !== follow.id) {
    store.db.followersIndex.remove([existing.targetId, existing.id]);
    store.db.followingIndex.remove([existing.accountId, existing.id]);
  }
  store.db.follows.put([follow.accountId, follow.targetId], follow);
  store.db.followersIndex.put([follow.targetId, follow.id], follow.accountId);
  store.db.followingIndex.put([follow.accountId, follow.id], follow.targetId);
  if (follow.notify) store.db.notifyingFollowers.put([follow.targetId, follow.accountId], null);
  else if (existing?.notify) store.db.notifyingFollowers.remove([follow.targetId, follow.accountId]);
  if (!existing) adjustFollowCounts(store, follow.accountId, follow.targetId, 1);
}

/** The followers of `targetId` who asked to be notified of its posts. */
export function notifyingFollowerIds(store: Store, targetId: string): string[] {
  const ids: string[] = [];
  for (const key of store.db.notifyingFollowers.getKeys({ start: [targetId], end: [targetId, END] })) ids.push((key as string[])[1]!);
  return ids;
}

export function hasNotifyingFollowers(store: Store, targetId: string): boolean {
  for (const _ of store.db.notifyingFollowers.getKeys({ start: [targetId], end: [targetId, END], limit: 1 })) return true;
  return false;
}

/** Migration 5: the index of notifying followers, for follows made before it. */
export function indexNotifyingFollowers(store: Store): void {
  for (const { value } of store.db.follows.getRange()) {
    const follow = value as FollowRecord;
    if (follow.notify) store.db.notifyingFollowers.put([follow.targetId, follow.accountId], null);
  }
}

/**
 * Removes the follow, if any, and the followed account from the follower's lists with it (as Mastodon's list
 * accounts belong to their follow): the lists are right as soon as the unfollow is. Returns what was removed.
 */
export function removeFollow(store: Store, followerId: string, targetId: string): FollowRecord | undefined {
  const follow = getFollow(store, followerId, targetId);
  if (!follow) return undefined;
  for (const listId of ownerListsContaining(store, followerId, targetId)) {
    const list = getList(store, followerId, listId);
    if (list) removeMember(store, list, targetId);
  }
  store.db.follows.remove([followerId, targetId]);
  store.db.notifyingFollowers.remove([targetId, followerId]);
  store.db.followersIndex.remove([targetId, follow.id]);
  store.db.followingIndex.remove([followerId, follow.id]);
  adjustFollowCounts(store, followerId, targetId, -1);
  return follow;
}

/** A new pending request, or new options for an existing one (same id). */
export function putFollowRequest(store: Store, request: FollowRecord): void {
  const existing = getFollowRequest(store, request.accountId, request.targetId);
  if (existing && existing.id !== request.id) store.db.followRequestsIndex.remove([existing.targetId, existing.id]);
  store.db.followRequests.put([request.accountId, request.targetId], request);
  store.db.followRequestsIndex.put([request.targetId, request.id], request.accountId);
}

export function removeFollowRequest(store: Store, requesterId: string, targetId: string): FollowRecord | undefined {
  const request = getFollowRequest(store, requesterId, targetId);
  if (!request) return undefined;
  store.db.followRequests.remove([requesterId, targetId]);
  store.db.followRequestsIndex.remove([targetId, request.id]);
  return request;
}

export function insertBlock(store: Store, block: BlockRecord): void {
  const existing = getBlock(store, block.accountId, block.targetId);
  if (existing) store.db.blocksIndex.remove([existing.accountId, existing.id]);
  store.db.blocks.put([block.accountId, block.targetId], block);
  store.db.blocksIndex.put([block.accountId, block.id], block.targetId);
}

export function removeBlock(store: Store, blockerId: string, targetId: string): BlockRecord | undefined {
  const block = getBlock(store, blockerId, targetId);
  if (!block) return undefined;
  store.db.blocks.remove([blockerId, targetId]);
  store.db.blocksIndex.remove([blockerId, block.id]);
  return block;
}

/** Creates or replaces a mute (an expired one is replaced like any other). */
export function putMute(store: Store, mute: MuteRecord): void {
  const existing: MuteRecord | undefined = store.db.mutes.get([mute.accountId, mute.targetId]);
  if (existing && existing.id !== mute.id) store.db.mutesIndex.remove([existing.accountId, existing.id]);
  store.db.mutes.put([mute.accountId, mute.targetId], mute);
  store.db.mutesIndex.put([mute.accountId, mute.id], mute.targetId);
}

/** Removes the mute, expired or not. */
export function removeMute(store: Store, muterId: string, targetId: string): MuteRecord | undefined {
  const mute: MuteRecord | undefined = store.db.mutes.get([muterId, targetId]);
  if (!mute) return undefined;
  store.db.mutes.remove([muterId, targetId]);
  store.db.mutesIndex.remove([muterId, mute.id]);
  return mute;
}

/** An empty comment removes the note. */
export function putAccountNote(store: Store, accountId: string, targetId: string, comment: string): void {
  if (comment === "") store.db.accountNotes.remove([accountId, targetId]);
  else store.db.accountNotes.put([accountId, targetId], comment);
}
