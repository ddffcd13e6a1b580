// Featured hashtags (keyspace `tag_choices`, shared with tag-follows.ts; families by the key's first element):
//   ["ft", accountId, featuredId] → FeaturedTagRecord (an account's, in the order featured)
//   ["fn", accountId, tag]        → featuredId
//   ["fs", statusId, tag]         → FeaturedUse: this status is counted in its author's featured tag (so counting
//                                   is idempotent and a deletion finds what to count down)
import { END, type Store } from "./handle.ts";
import type { FeaturedTagRecord } from "../model/accounts.ts";

export interface FeaturedUse {
  accountId: string;
  createdAt: number;
}

export function featuredTagsOf(store: Store, accountId: string): FeaturedTagRecord[] {
  const out: FeaturedTagRecord[] = [];
  for (const { value } of store.db.tagChoices.getRange({ start: ["ft", accountId], end: ["ft", accountId, END] })) out.push(value as FeaturedTagRecord);
  return out;
}

export function getFeaturedTag(store: Store, accountId: string, id: string): FeaturedTagRecord | undefined {
  return store.db.tagChoices.get(["ft", accountId, id]);
}

export function featuredTagByName(store: Store, accountId: string, tag: string): FeaturedTagRecord | undefined {
  const id = store.db.tagChoices.get(["fn", accountId, tag]) as string | undefined;
  return id ? getFeaturedTag(store, accountId, id) : undefined;
}

/** Inside a write. */
export function putFeaturedTag(store: Store, record: FeaturedTagRecord): void {
  store.db.tagChoices.put(["ft", record.accountId, record.id], record);
  store.db.tagChoices.put(["fn", record.accountId, record.tag], record.id);
}

/** Inside a write. */
export function removeFeaturedTag(store: Store, record: FeaturedTagRecord): void {
  store.db.tagChoices.remove(["ft", record.accountId, record.id]);
  store.db.tagChoices.remove(["fn", record.accountId, record.tag]);
}

export function isCountedUse(store: Store, statusId: string, tag: string): boolean {
  return store.db.tagChoices.doesExist(["fs", statusId, tag]);
}

/** Inside a write. */
export function putCountedUse(store: Store, statusId: string, tag: string, use: FeaturedUse): void {
  store.db.tagChoices.put(["fs", statusId, tag], use);
}

/** Inside a write: the uses counted for a status, removed. */
export function takeCountedUses(store: Store, statusId: string): { tag: string; use: FeaturedUse }[] {
  const out: { tag: string; use: FeaturedUse }[] = [];
  for (const { key, value } of store.db.tagChoices.getRange({ start: ["fs", statusId], end: ["fs", statusId, END] })) {
    out.push({ tag: (key as string[])[2]!, use: value as FeaturedUse });
  }
  for (const { tag } of out) store.db.tagChoices.remove(["fs", statusId, tag]);
  return out;
}

/** Inside a write: every tag the account features, no longer featured (its data removal). */
export function removeFeaturedTagsOf(store: Store, accountId: string): void {
  for (const record of featuredTagsOf(store, accountId)) removeFeaturedTag(store, record);
}
