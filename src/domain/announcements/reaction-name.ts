// What an announcement may be reacted with: one Unicode emoji (a single grapheme made of pictographs,
// modifiers and joiners, a flag or a keycap), or the shortcode of one of this server's custom emojis.
import type { Store } from "../../store/db.ts";
import { getEmoji } from "../../store/emojis.ts";

const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3)(?:[\u{1F3FB}-\u{1F3FF}\uFE0F\u200D\u{E0020}-\u{E007F}]|\p{Extended_Pictographic})*$/u;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export function isUnicodeEmoji(name: string): boolean {
  return [...segmenter.segment(name)].length === 1 && EMOJI.test(name);
}

export function isReactionName(store: Store, name: string): boolean {
  return isUnicodeEmoji(name) || getEmoji(store, name) !== undefined;
}
