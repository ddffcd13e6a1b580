// Copies of other servers' custom emoji images (keyspace `custom_emojis`, family "r"; docs/media.md, "Remote
// media"): one record per remote image URL, so an emoji used by many statuses is fetched and kept once.
//   ["r", remoteUrl] → RemoteEmojiCopy
//   ["u", remoteUrl, accountId] → true: a remote account whose name, bio or fields used that image (its record
//   names the copy once kept, and the remote URL again once the copy is removed)
import type { RemoteEmojiCopy } from "../model/media.ts";
import { END, type Store } from "./handle.ts";

/** Longer URLs are not keyed (LMDB keys stay far below their 1978-byte limit); their emojis stay remote. */
export const MAX_KEYED_URL = 1024;

const db = (store: Store) => store.db.customEmojis;

export function getRemoteEmojiCopy(store: Store, url: string): RemoteEmojiCopy | undefined {
  return url.length > MAX_KEYED_URL ? undefined : db(store).get(["r", url]);
}

/** Inside a write. */
export function putRemoteEmojiCopy(store: Store, copy: RemoteEmojiCopy): void {
  if (copy.url.length <= MAX_KEYED_URL) db(store).put(["r", copy.url], copy);
}

/** Inside a write. */
export function removeRemoteEmojiCopy(store: Store, url: string): void {
  db(store).remove(["r", url]);
}

/** Up to `limit` copies after the URL `after` (null: from the first), in URL order. */
export function remoteEmojiCopiesAfter(store: Store, after: string | null, limit: number): RemoteEmojiCopy[] {
  const out: RemoteEmojiCopy[] = [];
  for (const { key, value } of db(store).getRange({ start: ["r", after ?? ""], end: ["r", END], limit: limit + 1 })) {
    if (after !== null && (key as unknown[])[1] === after) continue;
    if (out.length < limit) out.push(value as RemoteEmojiCopy);
  }
  return out;
}

/** Inside a write. */
export function addEmojiUser(store: Store, url: string, accountId: string): void {
  if (url.length <= MAX_KEYED_URL) db(store).put(["u", url, accountId], true);
}

/** The accounts that used the image at `url` (some may have changed their emojis since). */
export function emojiUsers(store: Store, url: string): string[] {
  if (url.length > MAX_KEYED_URL) return [];
  return [...db(store).getKeys({ start: ["u", url], end: ["u", url, END] })].map((key) => String((key as unknown[])[2]));
}
