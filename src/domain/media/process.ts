// The `media.process` subscriber: a queued video, gifv or audio upload processed with ffmpeg. Idempotent:
// only a record still `processing` is worked on, and the result is written only if it still is (the
// uploader may have deleted it meanwhile; then the new files go again). A file ffmpeg cannot take marks the
// record `failed` (GET /api/v1/media/:id answers 422 with why), it is not retried.
import type { Config } from "../../config.ts";
import { removeIncoming } from "../../media/incoming.ts";
import type { Store } from "../../store/db.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import { discardFiles } from "./cleanup.ts";
import { processAudioVisualUpload, RejectedUpload, type ProcessedFiles } from "./files.ts";

export async function processQueuedMedia(store: Store, config: Config, mediaId: string): Promise<void> {
  const record = getMedia(store, mediaId);
  if (!record || record.state !== "processing" || !record.pendingFile) return;
  const pendingFile = record.pendingFile;
  let files: ProcessedFiles | null = null;
  let error: string | null = null;
  try {
    files = await processAudioVisualUpload(config, mediaId, pendingFile, record.contentType === "image/gif");
  } catch (caught) {
    if (!(caught instanceof RejectedUpload)) throw caught;
    error = caught.message;
  }
  const kept = await store.write(() => {
    const fresh = getMedia(store, mediaId);
    if (!fresh || fresh.state !== "processing") return false;
    if (!files) putMedia(store, { ...fresh, state: "failed", error, pendingFile: null });
    // A custom thumbnail's blurhash stays: it is what shows first.
    else putMedia(store, { ...fresh, ...files, blurhash: fresh.thumbnailUrl ? fresh.blurhash : files.blurhash, state: "ready", pendingFile: null });
    return true;
  });
  if (!kept && files) await discardFiles(config, [files.fileUrl, files.previewUrl]);
  await removeIncoming(config, pendingFile);
}
