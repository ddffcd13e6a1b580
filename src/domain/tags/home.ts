// Followed hashtags in the home timeline: a public status (not a reblog) carrying a hashtag an account follows
// reaches that account's home even from an author it does not follow, unless it blocks or mutes the author
// or anyone mentioned, or the author blocks it (Mastodon's FeedManager#filter_from_tags?). Fan-out puts the
// rows (timelines/fan-out.ts); the home policy asks again at read time, so unfollowing the tag takes them out.
import type { Store } from "../../store/db.ts";
import { isFollowing } from "../../store/relationships.ts";
import { followsTag, tagFollowerIds } from "../../store/tag-follows.ts";
import { canSeeStatus, viewerHides } from "../policy/visibility.ts";
import type { StatusRecord } from "../../model/statuses.ts";

const taggable = (status: StatusRecord) => status.visibility === "public" && !status.reblogOfId && status.tags.length > 0;

/** The accounts following one of the status's hashtags that do not follow its author (those get it anyway). */
export function tagFollowersOf(store: Store, status: StatusRecord): string[] {
  if (!taggable(status)) return [];
  const ids = new Set<string>();
  for (const tag of new Set(status.tags)) {
    for (const id of tagFollowerIds(store, tag)) {
      if (id !== status.accountId && !isFollowing(store, id, status.accountId)) ids.add(id);
    }
  }
  return [...ids].sort();
}

/** Does one of the viewer's followed hashtags bring this status into their home? */
export function tagBringsHome(
  store: Store,
  viewerId: string,
  status: StatusRecord,
  hides: (accountId: string) => boolean = (accountId) => viewerHides(store, viewerId, accountId),
): boolean {
  if (!taggable(status) || status.accountId === viewerId) return false;
  if (!status.tags.some((tag) => followsTag(store, viewerId, tag))) return false;
  if (hides(status.accountId) || status.mentionIds.some(hides)) return false;
  return canSeeStatus(store, viewerId, status);
}
