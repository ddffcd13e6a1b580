// Fetching a remote file to keep here (remote-media.ts, remote-emojis.ts): through lib/safe-fetch.ts (no private
// addresses unless allowed, redirects checked, a time budget) within a size limit, never from a domain whose
// block rejects media.
import type { Config } from "../config.ts";
import { domainBlockFor } from "../domain/admin/domain-blocks.ts";
import { warrenUserAgent } from "../domain/limits.ts";
import { safeFetch } from "../lib/safe-fetch.ts";
import type { Store } from "../store/db.ts";

/** Below the job's own minute, so a slow server fails the fetch, not the job runner's time limit. */
const FETCH_TIMEOUT_MS = 40_000;
/** A file whose copy is missing is queued again by a read at most this often. */
export const REFETCH_EVERY_MS = 60 * 60_000;

/** Whether files from `url`'s server must not be fetched nor kept (reject_media, or a suspended domain). */
export function mediaRejectedFrom(store: Store, url: string): boolean {
  try {
    const block = domainBlockFor(store, new URL(url).hostname);
    return !!block && (block.rejectMedia || block.severity === "suspend");
  } catch {
    return true;
  }
}

/** The bytes at `url` within `maxBytes`, or null (4xx, too large); throws on errors worth a retry. */
export async function fetchFile(config: Config, url: string, maxBytes: number): Promise<Uint8Array | null> {
  const response = await safeFetch(new URL(url), {
    maxBytes, maxRedirects: 3, timeoutMs: FETCH_TIMEOUT_MS, allowPrivateAddresses: config.allowPrivateAddresses,
    headers: { "user-agent": warrenUserAgent(config.url), accept: "image/*, video/*, audio/*" },
  });
  if (response.status >= 500 || response.status === 429) throw new Error(`${url}: ${response.status}`);
  return response.status === 200 && !response.truncated ? response.body : null;
}
