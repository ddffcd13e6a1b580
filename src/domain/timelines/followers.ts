// Who follows an account, as fan-out needs it for every status: kept per thread while the account's
// followers version (bumped by every follow and unfollow of it, store/versions.ts) is unchanged. The range
// scan decodes a key and a value per follower, and was a fifth of fan-out's time.
import type { Store } from "../../store/db.ts";
import { followerIdsOf } from "../../store/relationships.ts";
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
