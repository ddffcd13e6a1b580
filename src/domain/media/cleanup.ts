// Removing attachments: an upload never attached within a day (the `media.expire_unattached` subscriber and
// `warren media remove`), the attachments of a deleted status (its removal subscriber), and files no record
// points to any more (`warren media remove-orphans`). Records go first, in a write; their files after it
// commits, so a failure leaves unreferenced files, never a record without its files.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import { idAtTime } from "../../lib/ids.ts";
import { incomingFiles, removeIncoming } from "../../media/incoming.ts";
import { deleteMediaFile, mediaRoot } from "../../media/storage.ts";
import { mediaStore } from "../../media/store.ts";
import { removeStoredFolder } from "../../backup/guard.ts";
import type { Store } from "../../store/db.ts";
import { countUnattachedBefore, getMedia, removeMediaRecord, unattachedBefore } from "../../store/media.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** How long an upload may wait for a status (Mastodon removes them after a day as well). */
export const UNATTACHED_TTL_MS = 24 * 3600_000;

const BATCH = 200;

export async function discardFiles(config: Config, paths: readonly (string | null)[]): Promise<void> {
  await Promise.all(paths.map((path) => deleteMediaFile(config, path)));
}

/** The files of removed records, and a waiting upload's copy. */
export async function discardRecordFiles(config: Config, records: readonly MediaRecord[]): Promise<void> {
  await Promise.all(
    records.map(async (record) => {
      await discardFiles(config, [record.fileUrl, record.previewUrl, record.thumbnailUrl]);
      if (record.pendingFile) await removeIncoming(config, record.pendingFile);
    }),
  );
}

/** Removes the records `pick` keeps (re-read inside the write), then their files. Answers how many went. */
async function removeWhere(store: Store, config: Config, ids: readonly string[], pick: (record: MediaRecord) => boolean): Promise<number> {
  const removed = await store.write(() => {
    const out: MediaRecord[] = [];
    for (const id of ids) {
      const record = getMedia(store, id);
      if (!record || !pick(record)) continue;
      removeMediaRecord(store, record);
      out.push(record);
    }
    return out;
  });
  await discardRecordFiles(config, removed);
  return removed.length;
}

/** The upload, if it is still on no status a day after it became free. */
export function expireUnattached(store: Store, config: Config, mediaId: string, now = Date.now()): Promise<number> {
  return removeWhere(store, config, [mediaId], (r) => r.statusId === null && r.unattachedSince !== null && r.unattachedSince + UNATTACHED_TTL_MS <= now);
}

/** Every upload free since before `cutoff` (ms); `onBatch` hears how many went so far, of how many. */
export async function removeUnattachedBefore(store: Store, config: Config, cutoff: number, onBatch?: (removed: number, of: number) => void): Promise<number> {
  const of = countUnattachedBefore(store, cutoff);
  let removed = 0;
  for (;;) {
    const ids = unattachedBefore(store, cutoff, BATCH);
    if (ids.length === 0) return removed;
    removed += await removeWhere(store, config, ids, (r) => r.statusId === null && r.unattachedSince !== null && r.unattachedSince < cutoff);
    onBatch?.(removed, Math.max(removed, of));
  }
}

/** The attachments still on a removed status (a redraft has freed them already). */
export function removeMediaOfStatus(store: Store, config: Config, status: StatusRecord): Promise<number> {
  return removeWhere(store, config, status.mediaIds, (r) => r.statusId === status.id);
}

/**
 * Folders under media_attachments/<style>/<mediaId> whose record is gone, and waiting uploads in incoming/
 * whose record no longer waits for them: what a crash between storing files and committing left behind.
 * Answers how many uploads they were. Uploads younger than `graceMs` are spared (their request may still run).
 */
export async function removeOrphanFiles(store: Store, config: Config, graceMs = 3600_000, now = Date.now()): Promise<number> {
  const youngest = idAtTime(now - graceMs);
  const orphan = (mediaId: string) => /^\d+$/.test(mediaId) && mediaId < youngest && !getMedia(store, mediaId);
  const removed = config.s3 ? await removeOrphanObjects(config, orphan) : new Set<string>();
  const root = join(mediaRoot(config), "media_attachments");
  for (const style of config.s3 ? [] : await readdir(root).catch(() => [] as string[])) {
    for (const mediaId of await readdir(join(root, style)).catch(() => [] as string[])) {
      if (!orphan(mediaId)) continue;
      await removeStoredFolder(config.dataDir, join(root, style, mediaId));
      removed.add(mediaId);
    }
  }
  for (const { name, mediaId } of await incomingFiles(config)) {
    if (mediaId >= youngest || getMedia(store, mediaId)?.pendingFile === name) continue;
    await removeIncoming(config, name);
    removed.add(mediaId);
  }
  return removed.size;
}

/** removeOrphanFiles in a bucket: objects under media_attachments/<style>/<mediaId>/ of an orphan; answers those ids. */
async function removeOrphanObjects(config: Config, orphan: (mediaId: string) => boolean): Promise<Set<string>> {
  const removed = new Set<string>();
  const store = mediaStore(config);
  const keys: string[] = [];
  for await (const { key } of store.list("media_attachments/")) {
    const mediaId = key.split("/")[2];
    if (mediaId === undefined || !orphan(mediaId)) continue;
    keys.push(key);
    removed.add(mediaId);
  }
  for (const key of keys) await store.delete(key);
  return removed;
}
