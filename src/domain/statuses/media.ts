// The media_ids[] rules of POST /api/v1/statuses: at most 4, each an existing, own, unattached attachment,
// and a video or audio file only on its own.
//
// NOTE: media upload (POST /api/v2/media) is a later issue. Until its store exists, `findMedia` finds
// nothing, so every media id is "not found" (422). The media issue replaces `findMedia` with a lookup of the
// account's unattached, processed attachments; the rules below then apply unchanged.
import { Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { STATUS_LIMITS } from "../limits.ts";

export interface AttachableMedia {
  id: string;
  type: "image" | "gifv" | "video" | "audio" | "unknown";
}

function findMedia(_store: Store, _accountId: string, _id: string): AttachableMedia | undefined {
  return undefined;
}

/** Validates media_ids[] and returns the normalised ids in the client's order. */
export function resolveMediaIds(store: Store, accountId: string, rawIds: readonly string[]): string[] {
  const unique = [...new Set(rawIds)];
  if (unique.length > STATUS_LIMITS.maxMediaAttachments) {
    throw new Unprocessable(`Cannot attach more than ${STATUS_LIMITS.maxMediaAttachments} files`);
  }
  const found: AttachableMedia[] = [];
  const missing: string[] = [];
  for (const raw of unique) {
    const id = normaliseId(raw);
    const media = id ? findMedia(store, accountId, id) : undefined;
    if (media) found.push(media);
    else missing.push(raw);
  }
  if (missing.length) throw new Unprocessable(`Could not find media attachments with IDs: ${missing.join(", ")}`);
  if (found.length > 1 && found.some((m) => m.type === "video" || m.type === "audio")) {
    throw new Unprocessable("Cannot attach a video to a post that already contains images");
  }
  return found.map((m) => m.id);
}
