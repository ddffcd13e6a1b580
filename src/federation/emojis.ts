// Local custom emojis out (docs/federation.md): a status or profile naming a local emoji's `:shortcode:`
// carries an `Emoji` tag as Mastodon sends it (id, name `:shortcode:`, icon Image with url and mediaType,
// updated), and the emoji is served at its id (`/emojis/{shortcode}`) to ActivityPub GETs, so a server that
// sees the tag can dereference it. Remote servers show the image in place of the shortcode.
import type { Federation } from "@fedify/fedify";
import { Emoji, Image } from "@fedify/vocab";
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { getEmoji } from "../store/emojis.ts";
import { emojisInText } from "../domain/emojis/in-text.ts";
import { SHORTCODE } from "../domain/emojis/import.ts";
import type { CustomEmojiRecord } from "../model/media.ts";

const MEDIA_TYPES: Record<string, string> = { png: "image/png", gif: "image/gif", webp: "image/webp" };

/** The ActivityPub id of a local emoji. */
export const emojiUri = (config: Config, shortcode: string) => new URL(`/emojis/${shortcode}`, config.url);

/** The emoji as Mastodon's ActivityPub::EmojiSerializer renders it. */
export function emojiObject(config: Config, emoji: CustomEmojiRecord): Emoji {
  const extension = emoji.file.split(".").pop()?.toLowerCase() ?? "";
  return new Emoji({
    id: emojiUri(config, emoji.shortcode),
    name: `:${emoji.shortcode}:`,
    icon: new Image({ url: new URL(config.url + emoji.file), mediaType: MEDIA_TYPES[extension] ?? "image/png" }),
    updated: Temporal.Instant.fromEpochMilliseconds(emoji.createdAt),
  });
}

/** `Emoji` tags for the local emojis the texts name, each once. */
export function emojiTags(store: Store, config: Config, ...texts: string[]): Emoji[] {
  return emojisInText(store, ...texts).map((emoji) => emojiObject(config, emoji));
}

/** `/emojis/{shortcode}`: the Emoji object (404 for a shortcode of no emoji). */
export function setEmojiObjects(federation: Federation<void>, store: Store, config: Config): void {
  federation.setObjectDispatcher(Emoji, "/emojis/{shortcode}", (_ctx, { shortcode }) => {
    const emoji = SHORTCODE.test(shortcode) ? getEmoji(store, shortcode) : undefined;
    return emoji ? emojiObject(config, emoji) : null;
  });
}
