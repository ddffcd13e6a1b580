// Attachments on statuses: the media_ids[] rules of POST /api/v1/statuses (at most 4, each the author's own,
// on no status yet and processed; a video or audio only on its own), the attaching itself inside the
// status's write, and freeing them again when a status is deleted for redrafting (DELETE without
// delete_media, as Mastodon keeps them for about a day).
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import { recordEvent } from "../events.ts";
import { STATUS_LIMITS } from "../limits.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { StatusRecord } from "../../model/statuses.ts";

const PROCESSING = "Cannot attach files that have not finished processing. Try again in a moment!";

const attachable = (record: MediaRecord | undefined, accountId: string): record is MediaRecord =>
  !!record && record.accountId === accountId && record.statusId === null && record.state !== "failed";

/** Validates media_ids[] and returns the normalised ids in the client's order. */
export function resolveMediaIds(store: Store, accountId: string, rawIds: readonly string[]): string[] {
  const unique = [...new Set(rawIds)];
  if (unique.length > STATUS_LIMITS.maxMediaAttachments) {
    throw new Unprocessable(`Cannot attach more than ${STATUS_LIMITS.maxMediaAttachments} files`);
  }
  const found: MediaRecord[] = [];
  const missing: string[] = [];
  for (const raw of unique) {
    const id = normaliseId(raw);
    const record = id ? getMedia(store, id) : undefined;
    if (attachable(record, accountId)) found.push(record);
    else missing.push(raw);
  }
  if (missing.length) throw new Unprocessable(`Could not find media attachments with IDs: ${missing.join(", ")}`);
  if (found.some((m) => m.state === "processing")) throw new Unprocessable(PROCESSING);
  if (found.length > 1 && found.some((m) => m.type === "video" || m.type === "audio" || m.type === "gifv")) {
    throw new Unprocessable("Cannot attach a video to a post that already contains images");
  }
  return found.map((m) => m.id);
}

/** Inside the status's write: checked again (another post may have taken one meanwhile), then attached. */
export function attachMedia(store: Store, status: StatusRecord): void {
  for (const id of status.mediaIds) {
    const record = getMedia(store, id);
    if (!attachable(record, status.accountId) || record.state !== "ready") {
      throw new Unprocessable(`Could not find media attachments with IDs: ${id}`);
    }
    putMedia(store, { ...record, statusId: status.id, unattachedSince: null });
  }
}

/** Inside the deletion's write: the attachments are free to be posted again, and expire a day from now. */
export function detachForRedraft(deps: Pick<Deps, "store" | "jobs">, status: StatusRecord, now: number): void {
  for (const id of status.mediaIds) {
    const record = getMedia(deps.store, id);
    if (!record || record.statusId !== status.id) continue;
    putMedia(deps.store, { ...record, statusId: null, unattachedSince: now });
    recordEvent(deps, "media.detached", { mediaId: id, accountId: record.accountId }, "local", now);
  }
}
