// The custom emojis a local text names (`:shortcode:`), for the `emojis` of the entity that shows it.
import type { Store } from "../../store/db.ts";
import { getEmoji } from "../../store/emojis.ts";
import type { CustomEmojiRecord } from "../../model/media.ts";

const SHORTCODE_IN_TEXT = /:([a-zA-Z0-9_]{2,64}):/g;

/** Each emoji once, in the order the texts first name them; shortcodes of no emoji are left out. */
export function emojisInText(store: Store, ...texts: string[]): CustomEmojiRecord[] {
  const codes = new Set<string>();
  for (const text of texts) if (text.includes(":")) for (const m of text.matchAll(SHORTCODE_IN_TEXT)) codes.add(m[1]!);
  return [...codes].flatMap((code) => getEmoji(store, code) ?? []);
}
