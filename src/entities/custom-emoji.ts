// CustomEmoji (Mastodon's): an image addressed by `:shortcode:`, served from this server's media files.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import { Nullable } from "./nullable.ts";
import type { CustomEmojiRecord, RemoteEmoji } from "../model/media.ts";

export const CustomEmojiSchema = t.Object(
  {
    shortcode: t.String(),
    url: t.String(),
    static_url: t.String({ description: "The first frame, for animated emojis" }),
    visible_in_picker: t.Boolean(),
    category: Nullable(t.String()),
  },
  { description: "Mastodon CustomEmoji" },
);
export type CustomEmoji = Static<typeof CustomEmojiSchema>;

export const emojiUrls = (config: Config, emoji: CustomEmojiRecord) => ({ url: mediaUrl(config, emoji.file)!, static_url: mediaUrl(config, emoji.staticFile)! });

export function presentCustomEmoji(config: Config, emoji: CustomEmojiRecord): CustomEmoji {
  return { shortcode: emoji.shortcode, ...emojiUrls(config, emoji), visible_in_picker: emoji.visibleInPicker, category: emoji.category };
}

/** Another server's emoji in a status or account (never in our picker): its remote URLs, or a copy's paths here. */
export function presentRemoteEmoji(config: Config, emoji: RemoteEmoji): { shortcode: string; url: string; static_url: string; visible_in_picker: false } {
  return { shortcode: emoji.shortcode, url: mediaUrl(config, emoji.url)!, static_url: mediaUrl(config, emoji.staticUrl)!, visible_in_picker: false };
}
