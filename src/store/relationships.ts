// The social graph: follows, follow requests, blocks, mutes, notes. Reads here are the guards every
// interaction checks synchronously; writes keep each record and its paging index in step.
import type { Store } from "./db.ts";
import type { BlockRecord, FollowRecord, MuteRecord } from "./records.ts";

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

export function isMuting(store: Store, muterId: string, targetId: string, now = Date.now()): boolean {
  return getMute(store, muterId, targetId, now) !== undefined;
}

export function getAccountNote(store: Store, accountId: string, targetId: string): string {
  return store.db.accountNotes.get([accountId, targetId]) ?? "";
}
