// Custom emojis (keyspace `custom_emojis`; docs/instance.md#custom-emojis): one record per shortcode, its
// image files under data/media/emojis/ (store/media.ts serves them).
//   ["e", shortcode] → CustomEmojiRecord
import { END, type Store } from "./handle.ts";
import type { CustomEmojiRecord } from "../model/media.ts";

const db = (store: Store) => store.db.customEmojis;

export function getEmoji(store: Store, shortcode: string): CustomEmojiRecord | undefined {
  return db(store).get(["e", shortcode]);
}

/** Every emoji, by shortcode. */
export function allEmojis(store: Store): CustomEmojiRecord[] {
  const out: CustomEmojiRecord[] = [];
  for (const { value } of db(store).getRange({ start: ["e"], end: ["e", END] })) out.push(value as CustomEmojiRecord);
  return out;
}

/** Inside a write. */
export function putEmoji(store: Store, emoji: CustomEmojiRecord): void {
  db(store).put(["e", emoji.shortcode], emoji);
}

/** Inside a write. */
export function removeEmoji(store: Store, shortcode: string): void {
  db(store).remove(["e", shortcode]);
}
