// The custom emojis a local text names (`:shortcode:`), for the `emojis` of the entity that shows it.
import type { Store } from "../../store/db.ts";
import { getEmoji } from "../../store/emojis.ts";
import type { CustomEmojiRecord } from "../../model/media.ts";

const SHORTCODE_IN_TEXT = /:([a-zA-Z0-9_]{2,64}):/g;

/** Each emoji once, in the order the texts first name them; shortcodes of no emoji are left out. */
export function emojisInText(store: Store, ...texts: string[]): CustomEmojiRecord[] {
  const found: CustomEmojiRecord[] = [];
  // Most texts name none: no set, no regular expression.
  if (!texts.some((text) => text.includes(":"))) return found;
  const codes = new Set<string>();
  for (const text of texts) if (text.includes(":")) for (const m of text.matchAll(SHORTCODE_IN_TEXT)) codes.add(m[1]!);
  for (const code of codes) {
    const emoji = getEmoji(store, code);
    if (emoji) found.push(emoji);
  }
  return found;
}
