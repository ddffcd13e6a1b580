// Media attachments: one record per upload, and an index of the uploads on no status, by the time since
// when (upload, or the redraft that detached them), which the daily clean-up and `warren media remove` scan.
// putMedia keeps the index in step with the record, so nothing else writes it.
import { KeptRecords, versionName } from "./versions.ts";

import type { MediaRecord } from "../model/media.ts";
import { type Store, recordIdsAfter } from "./handle.ts";

const keptMedia = new KeptRecords<MediaRecord>("kept media", 20_000);

export function getMedia(store: Store, id: string): MediaRecord | undefined {
  return keptMedia.get(store, id, versionName.media(id), () => store.db.media.get(id));
}

/** Inside a write: stores the record and keeps the unattached index matching it. */
export function putMedia(store: Store, record: MediaRecord): void {
  const previous = getMedia(store, record.id);
  if (previous?.unattachedSince != null && previous.unattachedSince !== record.unattachedSince) {
    store.db.mediaUnattached.remove([previous.unattachedSince, record.id]);
  }
  if (record.unattachedSince !== null) store.db.mediaUnattached.put([record.unattachedSince, record.id], record.accountId);
  store.db.media.put(record.id, record);
}

/** Inside a write: the record and its index row (its files are the caller's, after the commit). */
export function removeMediaRecord(store: Store, record: MediaRecord): void {
  if (record.unattachedSince !== null) store.db.mediaUnattached.remove([record.unattachedSince, record.id]);
  store.db.media.remove(record.id);
}

/** Ids of uploads unattached since before `cutoff` (ms), oldest first, at most `limit`. */
export function unattachedBefore(store: Store, cutoff: number, limit: number): string[] {
  const out: string[] = [];
  for (const key of store.db.mediaUnattached.getKeys({ start: [0], end: [cutoff], limit })) out.push((key as [number, string])[1]);
  return out;
}

export function countUnattachedBefore(store: Store, cutoff: number): number {
  return store.db.mediaUnattached.getCount({ start: [0], end: [cutoff] });
}

/** Ids of stored media (local and remote) in id order, the `limit` after `afterId` (scans for the remote cache). */
export function mediaIdsAfter(store: Store, afterId: string | null, limit: number): string[] {
  return recordIdsAfter(store.db.media, afterId, limit);
}

/** When the remote media cache's daily clean-up (domain/media/remote-cache-expiry.ts) runs next. */
export function nextCacheExpiryAt(store: Store): number | undefined {
  return store.db.meta.get("remote_media_expiry_next");
}

/** Inside a write. */
export function putNextCacheExpiryAt(store: Store, runAt: number): void {
  store.db.meta.put("remote_media_expiry_next", runAt);
}
