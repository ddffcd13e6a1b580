// A hashtag and the viewer: GET /api/v1/tags/:name, follow and unfollow, GET /api/v1/followed_tags. Following a
// tag brings its public statuses into the follower's home (tags/home.ts); unfollowing takes them out at once,
// since the home policy asks again at read time.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { featuredTagByName } from "../../store/featured-tags.ts";
import { followsTag, getTagFollow, pageTagFollows, putTagFollow, removeTagFollow } from "../../store/tag-follows.ts";
import { weekOf, type TagHistoryDay } from "./history.ts";
import { requireTagName } from "./names.ts";
import type { PageQuery } from "../../model/paging.ts";

export interface LoadedTag {
  name: string;
  history: TagHistoryDay[];
  /** null for anonymous viewers */
  flags: { following: boolean; featuring: boolean } | null;
}

export function tagFlagsOf(store: Store, viewerId: string, name: string): { following: boolean; featuring: boolean } {
  return { following: followsTag(store, viewerId, name), featuring: featuredTagByName(store, viewerId, name) !== undefined };
}

export function loadTag(store: Store, viewerId: string | null, name: string): LoadedTag {
  return { name, history: weekOf(store, name), flags: viewerId ? tagFlagsOf(store, viewerId, name) : null };
}

/** GET /api/v1/tags/:name: any valid name, used or not (its history is then empty). */
export function showTag(deps: Deps, viewerId: string | null, rawName: string): LoadedTag {
  return loadTag(deps.store, viewerId, requireTagName(rawName));
}

/** POST /api/v1/tags/:name/follow: following again changes nothing. */
export async function followTag(deps: Deps, viewerId: string, rawName: string): Promise<LoadedTag> {
  const name = requireTagName(rawName);
  await deps.store.write(() => {
    if (getTagFollow(deps.store, viewerId, name)) return;
    const now = Date.now();
    putTagFollow(deps.store, { v: 1, id: newId(now), accountId: viewerId, tag: name, createdAt: now });
  });
  return loadTag(deps.store, viewerId, name);
}

/** POST /api/v1/tags/:name/unfollow: 200 whether or not it was followed. */
export async function unfollowTag(deps: Deps, viewerId: string, rawName: string): Promise<LoadedTag> {
  const name = requireTagName(rawName);
  await deps.store.write(() => removeTagFollow(deps.store, viewerId, name));
  return loadTag(deps.store, viewerId, name);
}

/** GET /api/v1/followed_tags: newest follow first; cursors are the follows' ids. */
export function followedTags(deps: Deps, viewerId: string, query: PageQuery): { tags: LoadedTag[]; cursors: string[] } {
  const rows = pageTagFollows(deps.store, viewerId, query);
  return { tags: rows.map((row) => loadTag(deps.store, viewerId, row.tag)), cursors: rows.map((row) => row.id) };
}
