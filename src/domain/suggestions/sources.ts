// Where follow suggestions come from (Mastodon 4.3's Suggestion `sources`). Each source ranks candidate
// accounts from bounded reads, best first; which of them may be shown to a viewer is decided later
// (eligible.ts), so a source only leaves out what it must to keep its list useful (the viewer and, for the
// personal sources, whom the viewer follows already). Every read here is capped: see SOURCE_LIMITS.
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { isFollowing } from "../../store/relationships.ts";
import { listFeatured, localUserIds, newestFollowers, newestFollowing, recentStatuses } from "../../store/suggestions.ts";
import { versionName } from "../../store/versions.ts";

export type SuggestionSource = "featured" | "most_followed" | "most_interactions" | "similar_to_recently_followed" | "friends_of_friends";

/** The order in which a suggestion lists its sources (the first one gives the deprecated `source`). */
export const SOURCE_ORDER: readonly SuggestionSource[] = [
  "featured",
  "friends_of_friends",
  "similar_to_recently_followed",
  "most_followed",
  "most_interactions",
];

export const SOURCE_LIMITS = {
  /** candidates each source hands on, before the viewer's exclusions */
  perSource: 200,
  /** staff picks read (and at most this many may be set) */
  featured: 200,
  /** friends of friends: the viewer's newest follows (first degree) … */
  firstDegree: 100,
  /** … and the newest follows of each of them */
  followsPerFriend: 100,
  /** similar to recently followed: the viewer's newest follows … */
  recentlyFollowed: 5,
  /** … their newest followers … */
  followersPerRecent: 20,
  /** … and the newest follows of each such follower */
  followsPerFollower: 50,
  /** most followed: local users examined … */
  localUsers: 5_000,
  /** … and follow rows read over all of them (each user's newest first, shared out evenly) */
  localFollowRows: 50_000,
  /** most interactions: statuses of the last `interactionDays` days examined, newest first */
  recentStatuses: 10_000,
  interactionDays: 30,
} as const;

/** A source's candidates, best first. */
export interface Ranked {
  accountId: string;
  score: number;
}

/** Counts into a ranking: highest count first, ties by newer account (higher id) first. */
function rank(counts: Map<string, number>, limit: number): Ranked[] {
  return [...counts]
    .map(([accountId, score]) => ({ accountId, score }))
    .sort((a, b) => b.score - a.score || (a.accountId < b.accountId ? 1 : -1))
    .slice(0, limit);
}

function add(counts: Map<string, number>, id: string, by = 1): void {
  counts.set(id, (counts.get(id) ?? 0) + by);
}

/** Accounts whose follow lists are hidden (hide_collections) never lend them to suggestions. */
function collectionsShown(store: Store, accountId: string): boolean {
  const account = getAccount(store, accountId);
  return !!account && !account.hideCollections && !account.suspended;
}

/** Staff picks, oldest pick first. */
export function featuredIds(store: Store): string[] {
  return listFeatured(store, SOURCE_LIMITS.featured).map((pick) => pick.accountId);
}

/** What the personal sources read, besides account records: the versions whose bump may change them. */
export interface Personal {
  friendsOfFriends: Ranked[];
  similar: Ranked[];
  depends: string[];
}

/**
 * friends_of_friends: accounts followed by the accounts the viewer follows, by how many of them follow each.
 * similar_to_recently_followed: accounts followed by the followers of the accounts the viewer followed most
 * recently (people who followed the same accounts lately follow these too), by how many such follows.
 */
export function personalSources(store: Store, viewerId: string): Personal {
  const L = SOURCE_LIMITS;
  const depends = [versionName.viewer(viewerId)];
  // The same accounts come up again and again (that is what ranks them): one follow check each.
  const checked = new Map<string, boolean>();
  const candidate = (id: string) => {
    let ok = checked.get(id);
    if (ok === undefined) checked.set(id, (ok = id !== viewerId && !isFollowing(store, viewerId, id)));
    return ok;
  };

  const fof = new Map<string, number>();
  const following = newestFollowing(store, viewerId, L.firstDegree);
  for (const friendId of following) {
    if (!collectionsShown(store, friendId)) continue;
    depends.push(versionName.viewer(friendId));
    for (const id of newestFollowing(store, friendId, L.followsPerFriend)) if (candidate(id)) add(fof, id);
  }

  const similar = new Map<string, number>();
  const recent = following.slice(0, L.recentlyFollowed);
  const seenFollowers = new Set<string>();
  for (const recentId of recent) {
    if (!collectionsShown(store, recentId)) continue;
    depends.push(versionName.followers(recentId));
    for (const followerId of newestFollowers(store, recentId, L.followersPerRecent)) {
      if (followerId === viewerId || seenFollowers.has(followerId) || !collectionsShown(store, followerId)) continue;
      seenFollowers.add(followerId);
      depends.push(versionName.viewer(followerId));
      for (const id of newestFollowing(store, followerId, L.followsPerFollower)) if (candidate(id)) add(similar, id);
    }
  }
  return { friendsOfFriends: rank(fof, L.perSource), similar: rank(similar, L.perSource), depends };
}

/** most_followed: the accounts the most local users follow (each user's newest follows, within the budget). */
export function mostFollowed(store: Store): Ranked[] {
  const L = SOURCE_LIMITS;
  const users = localUserIds(store, L.localUsers);
  const perUser = Math.max(20, Math.floor(L.localFollowRows / Math.max(1, users.length)));
  const counts = new Map<string, number>();
  for (const userId of users) for (const id of newestFollowing(store, userId, perUser)) add(counts, id);
  return rank(counts, L.perSource);
}

/**
 * most_interactions: the authors whose public and unlisted statuses of the last 30 days have the most
 * favourites and reblogs (the newest statuses first, within the budget).
 */
export function mostInteractions(store: Store, now: number): Ranked[] {
  const L = SOURCE_LIMITS;
  const counts = new Map<string, number>();
  for (const status of recentStatuses(store, now - L.interactionDays * 86_400_000, L.recentStatuses)) {
    if (status.deletedAt || status.reblogOfId || (status.visibility !== "public" && status.visibility !== "unlisted")) continue;
    const interactions = status.favouritesCount + status.reblogsCount;
    if (interactions > 0) add(counts, status.accountId, interactions);
  }
  return rank(counts, L.perSource);
}
