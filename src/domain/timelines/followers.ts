// Who follows an account, as fan-out needs it for every status: kept per thread while the account's
// followers version (bumped by every follow and unfollow of it, store/versions.ts) is unchanged. The range
// scan decodes a key and a value per follower, and was a fifth of fan-out's time.
import type { Store } from "../../store/db.ts";
import { followerIdsOf } from "../../store/relationships.ts";
import { isLocalAccountId } from "../../store/timelines.ts";
import { versionName } from "../../store/versions.ts";
import { VersionedCache } from "../versioned-cache.ts";

/** Follower ids kept per thread, in all: about 60 MB at most. */
const MAX_IDS = 1_000_000;

const lists = new WeakMap<Store, VersionedCache<readonly string[]>>();

/** The ids of the accounts following `accountId`, as of now. Do not change the array. */
export function followersOf(store: Store, accountId: string): readonly string[] {
  let cache = lists.get(store);
  if (!cache) lists.set(store, (cache = new VersionedCache<readonly string[]>(MAX_IDS, (ids) => ids.length + 1)));
  return cache.get(store, accountId, () => ({ value: [...followerIdsOf(store, accountId)], depends: [versionName.followers(accountId)] })).value;
}

const localLists = new WeakMap<Store, VersionedCache<readonly string[]>>();

/** The ids of `accountId`'s followers on this server (whose homes fan-out fills), kept the same way. */
export function localFollowersOf(store: Store, accountId: string): readonly string[] {
  let cache = localLists.get(store);
  if (!cache) localLists.set(store, (cache = new VersionedCache<readonly string[]>(MAX_IDS, (ids) => ids.length + 1)));
  return cache.get(store, accountId, () => ({
    value: followersOf(store, accountId).filter((id) => isLocalAccountId(store, id)),
    depends: [versionName.followers(accountId)],
  })).value;
}

const remoteLists = new WeakMap<Store, VersionedCache<readonly string[]>>();
/** Remote follower ids kept per thread, in all. */
const MAX_REMOTE_IDS = 200_000;

/**
 * The ids of `accountId`'s followers on other servers, kept the same way (an account's server never changes):
 * every post asks whom it goes out to, and an author with thousands of local followers had each of their
 * records decoded per post only to be left out.
 */
export function remoteFollowersOf(store: Store, accountId: string): readonly string[] {
  let cache = remoteLists.get(store);
  if (!cache) remoteLists.set(store, (cache = new VersionedCache<readonly string[]>(MAX_REMOTE_IDS, (ids) => ids.length + 1)));
  return cache.get(store, accountId, () => ({
    value: followersOf(store, accountId).filter((id) => !isLocalAccountId(store, id)),
    depends: [versionName.followers(accountId)],
  })).value;
}
