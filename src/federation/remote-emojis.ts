// Fetching other servers' custom emoji images to keep here (docs/media.md, "Remote media"): a status stored or
// edited with emojis queues one `remote` job per image URL not kept yet (grouped by its host), marking the URL
// as queued so the same emoji in the next statuses is not fetched again (a fetch that failed is queued again
// after REFETCH_EVERY_MS, by the next status or read using it). The image goes through lib/safe-fetch.ts with
// Mastodon's limit for emojis (256 KiB) and is kept by domain/media/remote-emojis.ts. Nothing is fetched from
// a domain whose block rejects media: its emojis keep their remote URLs.
import { EMOJI_MAX_BYTES } from "../domain/emojis/import.ts";
import { cacheRemoteEmoji } from "../domain/media/remote-emojis.ts";
import { getRemoteEmojiCopy, MAX_KEYED_URL, putRemoteEmojiCopy } from "../store/remote-emojis.ts";
import type { FederationDeps } from "./context.ts";
import { fetchFile, mediaRejectedFrom, REFETCH_EVERY_MS } from "./remote-fetch.ts";
import { enqueueRemoteFetch, REMOTE_EMOJI_FETCH } from "./remote-jobs.ts";
import type { RemoteEmoji } from "../model/media.ts";

/** Whether the emoji image at `url` wants a fetch: not kept, not queued lately, not from a rejected domain. */
function emojiFetchDue(deps: Pick<FederationDeps, "store">, url: string, now: number): boolean {
  if (url.length > MAX_KEYED_URL) return false;
  const copy = getRemoteEmojiCopy(deps.store, url);
  if (copy?.file || (copy && now - copy.queuedAt < REFETCH_EVERY_MS)) return false;
  return !mediaRejectedFrom(deps.store, url);
}

/** Inside a write: queues the fetch of each emoji image of `emojis` that wants one. */
export function queueEmojiFetches(deps: Pick<FederationDeps, "store" | "jobs">, emojis: readonly RemoteEmoji[], now = Date.now()): void {
  for (const { url } of emojis) {
    if (!emojiFetchDue(deps, url, now)) continue;
    putRemoteEmojiCopy(deps.store, { v: 1, url, file: null, staticFile: null, queuedAt: now, cachedAt: null });
    enqueueRemoteFetch(deps, REMOTE_EMOJI_FETCH, { url }, url);
  }
}

/** Whether any of `emojis` wants a fetch (read only: callers skip the write when none does). */
export const emojiFetchesDue = (deps: Pick<FederationDeps, "store">, emojis: readonly RemoteEmoji[], now = Date.now()): boolean =>
  emojis.some(({ url }) => emojiFetchDue(deps, url, now));

export async function fetchRemoteEmoji(deps: FederationDeps, { url }: { url: string }): Promise<void> {
  if (getRemoteEmojiCopy(deps.store, url)?.file || mediaRejectedFrom(deps.store, url)) return;
  const bytes = await fetchFile(deps.config, url, EMOJI_MAX_BYTES);
  if (bytes) await cacheRemoteEmoji(deps, url, bytes);
}
