// Custom emojis of other servers (docs/federation.md, "Custom emojis"): `tag` entries of type `Emoji` in a Note,
// a Question's options or an actor's name, bio and fields. Kept as Mastodon keeps them: only those whose
// `:shortcode:` the texts use, each once, at most MAX_EMOJIS, with http(s) image URLs (the icon's URL is also the
// static one until remote media is kept locally).
import { Emoji, Image, Link } from "@fedify/vocab";
import { httpUrl, readOptions } from "./note-attachments.ts";
import type { RemoteEmoji } from "../model/media.ts";

/** Emojis kept per status or account; Mastodon has no fixed limit, but a Note may tag thousands. */
export const MAX_EMOJIS = 50;
const SHORTCODE = /^:?([a-zA-Z0-9_]{2,64}):?$/;

/** The emoji an `Emoji` tag describes, or null when it has no usable name or image. */
export async function remoteEmojiOf(tag: Emoji): Promise<RemoteEmoji | null> {
  const shortcode = SHORTCODE.exec(tag.name?.toString() ?? "")?.[1];
  if (!shortcode) return null;
  const icon = await tag.getIcon(readOptions).catch(() => null);
  const url = icon instanceof Image ? httpUrl(icon.url as URL | Link | null) : null;
  return url ? { shortcode, url, staticUrl: url } : null;
}

/** The emojis among `tags` that `texts` use, each once, in the tags' order. */
export async function emojisUsed(tags: Emoji[], texts: string[]): Promise<RemoteEmoji[]> {
  const out: RemoteEmoji[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    if (out.length >= MAX_EMOJIS) break;
    const emoji = await remoteEmojiOf(tag);
    if (!emoji || seen.has(emoji.shortcode) || !texts.some((text) => text.includes(`:${emoji.shortcode}:`))) continue;
    seen.add(emoji.shortcode);
    out.push(emoji);
  }
  return out;
}

/** An actor's or Note's `Emoji` tags (up to `limit` tags read). */
export async function emojiTags(tags: AsyncIterable<unknown>, limit: number): Promise<Emoji[]> {
  const out: Emoji[] = [];
  let read = 0;
  for await (const tag of tags) {
    if (++read > limit) break;
    if (tag instanceof Emoji) out.push(tag);
  }
  return out;
}
