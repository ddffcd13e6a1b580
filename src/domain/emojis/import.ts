// Custom emojis (docs/instance.md#custom-emojis): imported by the operator (`warren emoji import`), listed by
// GET /api/v1/custom_emojis. An emoji is a PNG, GIF or WebP of at most 256 KiB and 1024×1024 pixels (per
// frame), kept as imported (animation included) beside a PNG of its first frame (`static_url`), both served
// from the media files like uploads.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import { allEmojis, getEmoji, putEmoji, removeEmoji } from "../../store/emojis.ts";
import { inspectImage, UnsupportedImage } from "../../media/images.ts";
import { loadSharp } from "../../media/sharp.ts";
import type { CustomEmojiRecord } from "../../model/media.ts";

/** Mastodon's CustomEmoji::LIMIT. */
export const EMOJI_MAX_BYTES = 256 * 1024;
export const EMOJI_MAX_SIDE = 1024;
/** Mastodon's SHORTCODE_RE_FRAGMENT, bounded. */
export const SHORTCODE = /^[a-zA-Z0-9_]{2,64}$/;
const FORMATS: Record<string, string> = { png: "png", gif: "gif", webp: "webp" };
const FOLDER = ["custom_emojis"];

export interface EmojiOptions {
  category?: string | null;
  visibleInPicker?: boolean;
  /** replace an emoji with the same shortcode (refused otherwise) */
  overwrite?: boolean;
}

type EmojiDeps = Pick<Deps, "store" | "config">;

/** Unprocessable past EMOJI_MAX_BYTES (the CLI asks before reading a file). */
export function checkEmojiSize(bytes: number): void {
  if (bytes > EMOJI_MAX_BYTES) throw new Unprocessable(`Validation failed: Image must be at most ${EMOJI_MAX_BYTES / 1024} KiB`);
}

/**
 * The format of an emoji image and a PNG of its first frame; Unprocessable (with the reason) when the bytes are
 * not a PNG, GIF or WebP within EMOJI_MAX_SIDE. Also used for other servers' emojis (media/remote-emojis.ts).
 */
export async function emojiImage(bytes: Uint8Array): Promise<{ format: string; still: Buffer }> {
  try {
    const info = await inspectImage(bytes);
    const format = FORMATS[info.format] ?? "";
    if (!format) throw new UnsupportedImage(`unsupported format ${info.format}`);
    const sharp = await loadSharp();
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    const frameHeight = meta.pageHeight ?? info.height;
    if (info.width > EMOJI_MAX_SIDE || frameHeight > EMOJI_MAX_SIDE) throw new Unprocessable(`Validation failed: Image must be at most ${EMOJI_MAX_SIDE}×${EMOJI_MAX_SIDE} pixels`);
    const still = await sharp(bytes, { limitInputPixels: EMOJI_MAX_SIDE * EMOJI_MAX_SIDE, failOn: "error" }).png().toBuffer();
    return { format, still };
  } catch (error) {
    if (error instanceof Unprocessable) throw error;
    throw new Unprocessable("Validation failed: Image must be a PNG, GIF or WebP image");
  }
}

/** Checks, stores and records one emoji; Unprocessable (with the reason) when it cannot be one. */
export async function importEmoji(deps: EmojiDeps, bytes: Uint8Array, shortcode: string, options: EmojiOptions = {}): Promise<CustomEmojiRecord> {
  if (!SHORTCODE.test(shortcode)) throw new Unprocessable("Validation failed: Shortcode must be 2 to 64 letters, digits or underscores");
  checkEmojiSize(bytes.length);
  if (!options.overwrite && getEmoji(deps.store, shortcode)) throw new Unprocessable(`Validation failed: Shortcode ${shortcode} is already taken`);
  const { format, still } = await emojiImage(bytes);
  const file = await saveMediaFile(deps.config, FOLDER, format, bytes);
  const staticFile = await saveMediaFile(deps.config, FOLDER, "png", still);
  const record: CustomEmojiRecord = {
    v: 1,
    shortcode,
    file,
    staticFile,
    category: options.category?.trim() || null,
    visibleInPicker: options.visibleInPicker ?? true,
    createdAt: Date.now(),
  };
  let replaced: CustomEmojiRecord | undefined;
  try {
    await deps.store.write(() => {
      replaced = getEmoji(deps.store, shortcode);
      if (replaced && !options.overwrite) throw new Unprocessable(`Validation failed: Shortcode ${shortcode} is already taken`);
      putEmoji(deps.store, record);
    });
  } catch (error) {
    await Promise.all([deleteMediaFile(deps.config, file), deleteMediaFile(deps.config, staticFile)]);
    throw error;
  }
  if (replaced) await Promise.all([deleteMediaFile(deps.config, replaced.file), deleteMediaFile(deps.config, replaced.staticFile)]);
  return record;
}

export async function deleteEmoji(deps: EmojiDeps, shortcode: string): Promise<void> {
  let removed: CustomEmojiRecord | undefined;
  await deps.store.write(() => {
    removed = getEmoji(deps.store, shortcode);
    if (!removed) throw new NotFound();
    removeEmoji(deps.store, shortcode);
  });
  await Promise.all([deleteMediaFile(deps.config, removed!.file), deleteMediaFile(deps.config, removed!.staticFile)]);
}

/** What GET /api/v1/custom_emojis lists: the emojis shown in pickers, by shortcode. */
export function listedEmojis(deps: Pick<Deps, "store">): CustomEmojiRecord[] {
  return allEmojis(deps.store).filter((e) => e.visibleInPicker);
}

export function everyEmoji(deps: Pick<Deps, "store">): CustomEmojiRecord[] {
  return allEmojis(deps.store);
}
