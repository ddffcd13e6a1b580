// Other servers' custom emoji images kept here (docs/media.md, "Remote media"): one copy per remote image URL
// (store/remote-emojis.ts), fetched once by a `remote` job (federation/remote-emojis.ts) however many statuses
// use it, checked as an imported emoji is (PNG, GIF or WebP, 256 KiB, 1024×1024 per frame), kept as sent beside
// a PNG of its first frame (`static_url`, as Mastodon does for animated emojis) and served from /system/. The
// API shows a status's emojis with the copy's URLs when it exists (read with the status), the remote ones
// otherwise; a remote account's record names the copy itself (as its avatar's does), kept up to date through
// the list of accounts using each image.
import type { Config } from "../../config.ts";
import { deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import {
  addEmojiUser, emojiUsers, getRemoteEmojiCopy, putRemoteEmojiCopy, remoteEmojiCopiesAfter, removeRemoteEmojiCopy,
} from "../../store/remote-emojis.ts";
import { emojiImage } from "../emojis/import.ts";
import { Unprocessable } from "../../lib/errors.ts";
import type { RemoteEmoji } from "../../model/media.ts";

interface CacheDeps {
  store: Store;
  config: Config;
}

const FOLDER = ["cache", "custom_emojis"];

/** The image URL an emoji was tagged with, whether or not its record names a copy here. */
export const remoteUrlOf = (emoji: RemoteEmoji): string => emoji.remoteUrl ?? emoji.url;

/** `emojis` with the URLs of the copies kept here, where they exist (paths under /system/). */
export function withKeptCopies(store: Store, emojis: readonly RemoteEmoji[]): RemoteEmoji[] {
  return emojis.map((emoji) => {
    const url = remoteUrlOf(emoji);
    const copy = getRemoteEmojiCopy(store, url);
    return copy?.file && copy.staticFile ? { shortcode: emoji.shortcode, url: copy.file, staticUrl: copy.staticFile, remoteUrl: url } : emoji;
  });
}

/**
 * Inside a write: a remote account's emojis as its record keeps them (the copies here where they exist), each
 * image noted as used by it so that a copy kept or removed later changes its record too.
 */
export function accountEmojis(store: Store, accountId: string, emojis: readonly RemoteEmoji[]): RemoteEmoji[] {
  for (const emoji of emojis) addEmojiUser(store, remoteUrlOf(emoji), accountId);
  return withKeptCopies(store, emojis);
}

/** Inside a write: the accounts using the image at `url` name `copy`'s files, or (null) the remote URL again. */
function pointAccountsAt(store: Store, url: string, copy: { file: string; staticFile: string } | null): void {
  for (const id of emojiUsers(store, url)) {
    const account = getAccount(store, id);
    if (!account?.emojis?.some((emoji) => remoteUrlOf(emoji) === url)) continue;
    const emojis = account.emojis.map((emoji) => {
      if (remoteUrlOf(emoji) !== url) return emoji;
      return copy ? { shortcode: emoji.shortcode, url: copy.file, staticUrl: copy.staticFile, remoteUrl: url } : { shortcode: emoji.shortcode, url, staticUrl: url };
    });
    putAccount(store, { ...account, emojis });
  }
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
    pointAccountsAt(deps.store, url, { file, staticFile });
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
        pointAccountsAt(deps.store, url, null);
      }
      return paths;
    });
    await Promise.all(files.map((path) => deleteMediaFile(deps.config, path)));
    removed += files.length / 2;
  }
  return removed;
}
