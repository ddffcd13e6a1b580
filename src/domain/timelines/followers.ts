// Who follows an account, on this server (whose homes fan-out fills) and on others (where a post is
// delivered): asked for every status, so kept per thread while the account's followers version (bumped by
// every follow and unfollow of it, store/versions.ts) is unchanged; an account's server never changes. The
// range scan decodes a key and a value per follower, and was a fifth of fan-out's time; delivery decoded
// every follower's account only to leave out the local ones.
import type { Store } from "../../store/db.ts";
import { followerIdsOf } from "../../store/relationships.ts";
import { isLocalAccountId } from "../../store/timelines.ts";
import { versionName } from "../../store/versions.ts";
import { VersionedCache } from "../caches/versioned.ts";

/** Follower ids kept per thread, in all, local and remote together: about 60 MB at most. */
const MAX_IDS = 1_000_000;

const lists = new VersionedCache<readonly string[]>("followers", MAX_IDS, { weigh: (ids) => ids.length + 1 });

/** The ids of `accountId`'s followers where `local` says, as of now. Do not change the array. */
function followers(store: Store, accountId: string, local: boolean): readonly string[] {
  return lists.get(store, `${local ? "l" : "r"}${accountId}`, () => ({
    value: [...followerIdsOf(store, accountId)].filter((id) => isLocalAccountId(store, id) === local),
    depends: [versionName.followers(accountId)],
  })).value;
}

export const localFollowersOf = (store: Store, accountId: string) => followers(store, accountId, true);

export const remoteFollowersOf = (store: Store, accountId: string) => followers(store, accountId, false);
