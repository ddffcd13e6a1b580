// Followed hashtags (keyspace `tag_choices`, shared with featured-tags.ts; families by the key's first element):
//   ["f", accountId, tag]       → TagFollowRecord
//   ["fi", accountId, followId] → tag     (GET /api/v1/followed_tags, paged by follow id as Mastodon's TagFollow ids)
//   ["by", tag, accountId]      → null    (the local accounts following a tag: fan-out)
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { TagFollowRecord } from "../model/relationships.ts";

export function getTagFollow(store: Store, accountId: string, tag: string): TagFollowRecord | undefined {
  return store.db.tagChoices.get(["f", accountId, tag]);
}

export function followsTag(store: Store, accountId: string, tag: string): boolean {
  return store.db.tagChoices.doesExist(["f", accountId, tag]);
}

/** Does the account follow any hashtag at all? (A home read skips the tag rule for most viewers.) */
export function followsAnyTag(store: Store, accountId: string): boolean {
  for (const _ of store.db.tagChoices.getKeys({ start: ["f", accountId], end: ["f", accountId, END], limit: 1 })) return true;
  return false;
}

/** Inside a write. */
export function putTagFollow(store: Store, record: TagFollowRecord): void {
  store.db.tagChoices.put(["f", record.accountId, record.tag], record);
  store.db.tagChoices.put(["fi", record.accountId, record.id], record.tag);
  store.db.tagChoices.put(["by", record.tag, record.accountId], null);
}

/** Inside a write; the follow removed, if there was one. */
export function removeTagFollow(store: Store, accountId: string, tag: string): TagFollowRecord | undefined {
  const record = getTagFollow(store, accountId, tag);
  if (!record) return undefined;
  store.db.tagChoices.remove(["f", accountId, tag]);
  store.db.tagChoices.remove(["fi", accountId, record.id]);
  store.db.tagChoices.remove(["by", tag, accountId]);
  return record;
}

/** A page of the account's followed tags, newest follow first: [followId, tag] pairs. */
export function pageTagFollows(store: Store, accountId: string, query: PageQuery): { id: string; tag: string }[] {
  return scanPage<string>(store.db.tagChoices, ["fi", accountId], query).map((row) => ({ id: row.key[2], tag: row.value }));
}

/** The accounts following a tag. */
export function* tagFollowerIds(store: Store, tag: string): Iterable<string> {
  for (const key of store.db.tagChoices.getKeys({ start: ["by", tag], end: ["by", tag, END] })) yield (key as string[])[2]!;
}

/** Inside a write: every hashtag the account follows, unfollowed (its data removal). */
export function removeTagFollowsOf(store: Store, accountId: string): void {
  const tags: string[] = [];
  for (const key of store.db.tagChoices.getKeys({ start: ["f", accountId], end: ["f", accountId, END] })) tags.push((key as string[])[2]!);
  for (const tag of tags) removeTagFollow(store, accountId, tag);
}
