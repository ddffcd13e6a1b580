// Other servers' custom emoji images kept here (docs/media.md, "Remote media"): one copy per remote image URL
// (store/remote-emojis.ts), fetched once by a `remote` job (federation/remote-emojis.ts) however many statuses
// use it, checked as an imported emoji is (PNG, GIF or WebP, 256 KiB, 1024×1024 per frame), kept as sent beside
// a PNG of its first frame (`static_url`, as Mastodon does for animated emojis) and served from /system/. The
// API shows a status's emojis with the copy's URLs when it exists, the remote ones otherwise.
import type { Config } from "../../config.ts";
import { deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import type { Store } from "../../store/db.ts";
import type { RemoteEmoji } from "../../store/records.ts";
import { getRemoteEmojiCopy, putRemoteEmojiCopy, remoteEmojiCopiesAfter, removeRemoteEmojiCopy } from "../../store/remote-emojis.ts";
import { emojiImage } from "../emojis/import.ts";
import { Unprocessable } from "../../lib/errors.ts";

interface CacheDeps {
  store: Store;
  config: Config;
}

const FOLDER = ["cache", "custom_emojis"];

/** `emojis` with the URLs of the copies kept here, where they exist (paths under /system/). */
export function withKeptCopies(store: Store, emojis: readonly RemoteEmoji[]): RemoteEmoji[] {
  return emojis.map((emoji) => {
    const copy = getRemoteEmojiCopy(store, emoji.url);
    return copy?.file && copy.staticFile ? { shortcode: emoji.shortcode, url: copy.file, staticUrl: copy.staticFile } : emoji;
  });
}

/** Keeps the fetched image of the remote emoji at `url`; false when it is not an emoji image or was kept already. */
export async function cacheRemoteEmoji(deps: CacheDeps, url: string, bytes: Uint8Array): Promise<boolean> {
  let image: Awaited<ReturnType<typeof emojiImage>>;
  try {
    image = await emojiImage(bytes);
  } catch (error) {
    if (error instanceof Unprocessable) return false;
    throw error;
  }
  const file = await saveMediaFile(deps.config, FOLDER, image.format, bytes);
  const staticFile = await saveMediaFile(deps.config, FOLDER, "png", image.still);
  const kept = await deps.store.write(() => {
    const current = getRemoteEmojiCopy(deps.store, url);
    if (current?.file) return false;
    putRemoteEmojiCopy(deps.store, { v: 1, url, file, staticFile, queuedAt: current?.queuedAt ?? Date.now(), cachedAt: Date.now() });
    return true;
  });
  // Fetched twice: the files no record points to go.
  if (!kept) await Promise.all([deleteMediaFile(deps.config, file), deleteMediaFile(deps.config, staticFile)]);
  return kept;
}

/** Removes the emoji copies kept before `before` (statuses show the remote URLs again); returns how many. */
export async function removeRemoteEmojiCopies(deps: CacheDeps, before: number): Promise<number> {
  let removed = 0;
  for (let after: string | null = null, page: ReturnType<typeof remoteEmojiCopiesAfter>; (page = remoteEmojiCopiesAfter(deps.store, after, 500)).length > 0; after = page.at(-1)!.url) {
    const stale = page.filter((copy) => copy.file && (copy.cachedAt ?? 0) < before);
    if (stale.length === 0) continue;
    const files = await deps.store.write(() => {
      const paths: (string | null)[] = [];
      for (const { url } of stale) {
        const current = getRemoteEmojiCopy(deps.store, url);
        if (!current?.file || (current.cachedAt ?? 0) >= before) continue;
        paths.push(current.file, current.staticFile);
        removeRemoteEmojiCopy(deps.store, url);
      }
      return paths;
    });
    await Promise.all(files.map((path) => deleteMediaFile(deps.config, path)));
    removed += files.length / 2;
  }
  return removed;
}
