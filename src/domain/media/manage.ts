// GET, PUT and DELETE /api/v1/media/:id: only the uploader's own attachments exist for them (any other id is
// 404). GET sees uploads on no status, as on Mastodon; PUT may also change the description, focus and
// thumbnail of one already on a status (which then shows the change); DELETE refuses one on a status.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import { getMedia, putMedia, removeMediaRecord } from "../../store/media.ts";
import { checkDescription, parseFocus, prepareThumbnail, saveThumbnail } from "./attributes.ts";
import { discardFiles, discardRecordFiles } from "./cleanup.ts";
import type { MediaRecord } from "../../model/media.ts";

function ownMedia(deps: Deps, accountId: string, rawId: string): MediaRecord {
  const id = normaliseId(rawId);
  const record = id ? getMedia(deps.store, id) : undefined;
  if (!record || record.accountId !== accountId) throw new NotFound();
  return record;
}

/** GET: the upload while it is on no status. */
export function showMedia(deps: Deps, accountId: string, rawId: string): MediaRecord {
  const record = ownMedia(deps, accountId, rawId);
  if (record.statusId !== null) throw new NotFound();
  return record;
}

export interface MediaChanges {
  description?: string;
  focus?: string;
  thumbnail?: unknown;
}

/** PUT: new description, focus or thumbnail; the replaced thumbnail's file goes after the write. */
export async function updateMedia(deps: Deps, accountId: string, rawId: string, changes: MediaChanges): Promise<MediaRecord> {
  const record = ownMedia(deps, accountId, rawId);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  const focus = changes.focus === undefined ? undefined : parseFocus(changes.focus);
  const thumbnail = await prepareThumbnail(changes.thumbnail);
  const thumbnailUrl = thumbnail ? await saveThumbnail(deps.config, record.id, thumbnail) : null;
  let replaced: string | null = null;
  let updated: MediaRecord;
  try {
    updated = await deps.store.write(() => {
      const fresh = getMedia(deps.store, record.id);
      if (!fresh) throw new NotFound();
      const next: MediaRecord = { ...fresh };
      if (description !== undefined) next.description = description;
      if (focus !== undefined) next.focus = focus;
      if (thumbnail && thumbnailUrl) {
        replaced = fresh.thumbnailUrl;
        next.thumbnailUrl = thumbnailUrl;
        next.blurhash = thumbnail.blurhash;
      }
      putMedia(deps.store, next);
      return next;
    });
  } catch (error) {
    await discardFiles(deps.config, [thumbnailUrl]);
    throw error;
  }
  await discardFiles(deps.config, [replaced]);
  return updated;
}

/** DELETE: the upload and its files, unless it is on a status. */
export async function deleteMedia(deps: Deps, accountId: string, rawId: string): Promise<void> {
  const record = ownMedia(deps, accountId, rawId);
  const removed = await deps.store.write(() => {
    const fresh = getMedia(deps.store, record.id);
    if (!fresh) return null;
    if (fresh.statusId !== null) throw new Unprocessable("Media attachment is currently used by a status");
    removeMediaRecord(deps.store, fresh);
    return fresh;
  });
  if (removed) await discardRecordFiles(deps.config, [removed]);
}
