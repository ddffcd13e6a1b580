// POST /api/v2/media and /api/v1/media. What a file is comes from its bytes (media/sniff.ts). Still images
// are processed in the request; video, gifv (animated GIFs) and audio are probed against Mastodon's limits
// in the request, kept as they came and processed by the `media.process` subscriber of `media.uploaded`
// (v1 waits for it). Either way
// the files exist before the record that points to them commits, and every upload starts its day-long
// wait for a status (`media.expire_unattached`).
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { UploadedFile } from "../../lib/uploaded-file.ts";
import { removeIncoming, saveIncoming } from "../../media/incoming.ts";
import { sniffUpload, type Sniffed } from "../../media/sniff.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import { recordEvent } from "../events.ts";
import { MEDIA_LIMITS } from "../limits.ts";
import { audioVisualSupport, checkAudioVisualUpload, inspectUploadedImage, processStill, RejectedUpload, type ProcessedFiles } from "./files.ts";
import { deleteMedia } from "./manage.ts";
import { checkDescription, parseFocus, prepareThumbnail, saveThumbnail, type PreparedThumbnail } from "./attributes.ts";
import { discardFiles } from "./cleanup.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { MediaRecord } from "../../model/media.ts";

/**
 * What the HTTP layer hands over: files already streamed to temporary files (UploadedFile: path, the
 * client's name and declared type, size), removed by the HTTP layer once the request is answered. A string
 * where a file belongs is a form's plain field ("" is an empty file input).
 */
export interface UploadInput {
  file?: UploadedFile | string;
  thumbnail?: UploadedFile | string;
  description?: string;
  focus?: string;
}

/** v2 answers before video and audio are processed (202); v1 waits for it. */
export type UploadMode = "queued" | "wait";

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function sniff(file: UploadedFile): Promise<Sniffed & { animated: boolean }> {
  const sniffed = await sniffUpload(file.blob());
  if (!sniffed) throw new Unprocessable("Validation failed: File content type is invalid");
  const limit = sniffed.kind === "image" ? MEDIA_LIMITS.imageSizeLimit : MEDIA_LIMITS.videoSizeLimit;
  if (file.size > limit) throw new Unprocessable(`Validation failed: File file size must be less than ${megabytes(limit)}`);
  if (sniffed.kind !== "image") return { ...sniffed, animated: false };
  // The header only: size, and the frames of an animation, refused past the limits before any is decoded.
  const info = await rejectAs422(inspectUploadedImage(await file.bytes()));
  // Animated GIFs become looping MP4 (gifv), as on Mastodon; a still GIF is an image.
  return { ...sniffed, animated: sniffed.mime === "image/gif" && info.pages > 1 };
}

function newRecord(id: string, accountId: string, now: number, fields: Partial<MediaRecord>): MediaRecord {
  return {
    v: 1,
    id,
    accountId,
    type: "image",
    state: "processing",
    fileUrl: null,
    previewUrl: null,
    thumbnailUrl: null,
    pendingFile: null,
    contentType: null,
    fileSize: 0,
    meta: {},
    focus: null,
    description: null,
    blurhash: null,
    error: null,
    statusId: null,
    unattachedSince: now,
    createdAt: now,
    ...fields,
  };
}

const ready = (files: ProcessedFiles): Partial<MediaRecord> => ({ ...files, state: "ready", pendingFile: null });

/** Uploads a file for `actor`; answers the stored record (state `processing` for queued video and audio). */
export async function uploadMedia(deps: Deps, actor: AccountRecord, input: UploadInput, mode: UploadMode): Promise<MediaRecord> {
  const { config } = deps;
  const file = input.file;
  if (!(file instanceof UploadedFile) || file.size === 0) throw new Unprocessable("Validation failed: File can't be blank");
  const description = checkDescription(input.description);
  const focus = parseFocus(input.focus);
  const sniffed = await sniff(file);
  const thumbnail = await prepareThumbnail(input.thumbnail);
  const now = Date.now();
  const id = newId(now);
  const base = { description, focus, contentType: sniffed.mime };

  let record: MediaRecord;
  let pendingFile: string | null = null;
  const saved: (string | null)[] = [];
  try {
    const thumbnailUrl = thumbnail ? await saveThumbnail(config, id, thumbnail) : null;
    saved.push(thumbnailUrl);
    if (sniffed.kind === "image" && !sniffed.animated) {
      const files = await rejectAs422(processStill(config, id, await file.bytes()));
      saved.push(files.fileUrl, files.previewUrl);
      record = newRecord(id, actor.id, now, { ...base, ...ready(files), ...withThumbnail(thumbnail, thumbnailUrl) });
    } else {
      const support = audioVisualSupport();
      if (!support.ok) throw new Unprocessable(support.message);
      pendingFile = await saveIncoming(config, id, file.blob(), sniffed.extension);
      // ffprobe's answer against Mastodon's limits: a refusal is this request's 422, not a failed job later.
      await rejectAs422(checkAudioVisualUpload(config, pendingFile, sniffed.animated));
      const type = sniffed.animated ? "gifv" : sniffed.kind === "audio" ? "audio" : "video";
      record = newRecord(id, actor.id, now, { ...base, type, pendingFile, ...withThumbnail(thumbnail, thumbnailUrl) });
    }
    const stored = record;
    await deps.store.write(() => {
      putMedia(deps.store, stored);
      recordEvent(deps, "media.uploaded", { mediaId: id, accountId: actor.id, processing: stored.state === "processing" }, "local", now);
    });
  } catch (error) {
    await discardFiles(config, saved);
    if (pendingFile) await removeIncoming(config, pendingFile);
    throw error;
  }
  if (mode === "wait" && record.state === "processing") return waitForProcessing(deps, actor, id);
  return getMedia(deps.store, id) ?? record;
}

const WAIT_POLL_MS = 100;

/**
 * v1: the upload is processed by its job like any other (in turn, fairly between accounts), and the request
 * waits for it: the record once ready; a 422 with why when it failed (the record then goes, as the upload was
 * refused); the record still processing if it is not done within a transcode's cap and a minute.
 */
async function waitForProcessing(deps: Deps, actor: AccountRecord, id: string): Promise<MediaRecord> {
  const until = Date.now() + deps.config.mediaTranscodeMaxMs + 60_000;
  for (;;) {
    // The job commits in a worker thread: read past this thread's snapshot.
    deps.store.freshSnapshot();
    const record = getMedia(deps.store, id);
    if (!record) throw new Unprocessable("Error processing media");
    if (record.state === "failed") {
      await deleteMedia(deps, actor.id, id);
      throw new Unprocessable(record.error ?? "Error processing media");
    }
    if (record.state === "ready" || Date.now() > until) return record;
    await Bun.sleep(WAIT_POLL_MS);
  }
}

/** A thumbnail's blurhash and colours describe what is shown first, so they win over the file's. */
function withThumbnail(thumbnail: PreparedThumbnail | null, thumbnailUrl: string | null): Partial<MediaRecord> {
  return thumbnail && thumbnailUrl ? { thumbnailUrl, blurhash: thumbnail.blurhash } : {};
}

async function rejectAs422<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RejectedUpload) throw new Unprocessable(error.message);
    throw error;
  }
}
