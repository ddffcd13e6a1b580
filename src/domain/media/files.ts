// Turning an upload into the files an attachment shows: still images at once (sharp), video, gifv and audio
// from their waiting copy (ffmpeg, media/audio-visual.ts). Files are stored before any record points to
// them, under `media_attachments/<kind>/<mediaId>/`; a failure afterwards leaves at most unreferenced files,
// which `warren media remove-orphans` finds.
import { availableParallelism } from "node:os";
import type { Config } from "../../config.ts";
import { semaphore } from "../../lib/semaphore.ts";
import { checkAudioVisual, processAudioVisual, UnsupportedMedia, type AvLimits } from "../../media/audio-visual.ts";
import { FFMPEG_MISSING, findFfmpeg } from "../../media/ffmpeg.ts";
import { encodeImage, inspectImage, UnsupportedImage, type ImageInfo } from "../../media/images.ts";
import { incomingPath, withScratchFolder } from "../../media/incoming.ts";
import { loadSharp } from "../../media/sharp.ts";
import { imageMeta, ORIGINAL_MAX_PIXELS, previewOf, type Preview } from "../../media/previews.ts";
import { adoptMediaFile, deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import { MEDIA_LIMITS } from "../limits.ts";
import type { MediaType } from "../../model/media.ts";

/** What processing adds to a media record. */
export interface ProcessedFiles {
  type: MediaType;
  fileUrl: string;
  previewUrl: string;
  contentType: string;
  fileSize: number;
  meta: Record<string, unknown>;
  blurhash: string;
}

/** A file we cannot take; the message is the 422's. */
export class RejectedUpload extends Error {}

/** Mastodon's video limits; a transcode's budget is capped by the operator's setting. */
export const avLimits = (config: Config): AvLimits => ({
  maxPixels: MEDIA_LIMITS.videoMatrixLimit,
  maxFrameRate: MEDIA_LIMITS.videoFrameRateLimit,
  maxFrames: MEDIA_LIMITS.videoFramesLimit,
  maxDurationSeconds: MEDIA_LIMITS.maxDurationSeconds,
  maxTranscodeMs: config.mediaTranscodeMaxMs,
  probeTimeoutMs: MEDIA_LIMITS.probeTimeoutMs,
  // Half the cores (at least one): a transcode leaves room for another account's, running beside it.
  threads: Math.max(1, Math.floor(availableParallelism() / 2)),
});

const folders = (mediaId: string, style: "original" | "small") => ["media_attachments", style, mediaId];

// Decoding holds the whole image in memory (up to ~130 MB at the pixel limit) and libvips already uses
// every core for one image: more at once only adds memory, so uploads beyond this wait their turn.
const decoding = semaphore(Math.max(1, availableParallelism()));

/** Checks an image's header before decoding anything: only known formats, and no decompression bombs. */
export async function inspectUploadedImage(bytes: Uint8Array) {
  try {
    const info = await inspectImage(bytes);
    if (info.width * info.height > MEDIA_LIMITS.imageMatrixLimit) {
      throw new RejectedUpload(`Validation failed: File dimensions are too large (the limit is ${MEDIA_LIMITS.imageMatrixLimit} pixels)`);
    }
    checkAnimation(info);
    return info;
  } catch (error) {
    if (error instanceof UnsupportedImage) throw new RejectedUpload("Validation failed: File content type is invalid");
    throw error;
  }
}

/**
 * An animated image's frames, counted from its header before any is decoded: an animated GIF becomes a video
 * (gifv) whose every frame is decoded and encoded, so a small file of many large frames is minutes of work.
 */
function checkAnimation({ pages, width, height }: ImageInfo): void {
  if (pages <= 1) return;
  const { videoFramesLimit, animationPixelsLimit } = MEDIA_LIMITS;
  if (pages > videoFramesLimit) throw new RejectedUpload(`Validation failed: File has too many frames (${pages}; the limit is ${videoFramesLimit})`);
  if (pages * width * height > animationPixelsLimit) {
    throw new RejectedUpload(
      `Validation failed: File has too many frames for its size (${pages} frames of ${width}x${height}; an animation may have at most ${animationPixelsLimit} pixels in all its frames)`,
    );
  }
}

/** The preview of an image (a still, a video frame, a custom thumbnail); RejectedUpload if it does not decode. */
export async function makePreview(image: Uint8Array): Promise<Preview> {
  try {
    return await previewOf(image, MEDIA_LIMITS.imageMatrixLimit);
  } catch (error) {
    if (error instanceof UnsupportedImage) throw new RejectedUpload("File type of uploaded media could not be verified");
    throw error;
  }
}

/** makePreview for an image of its own (a custom thumbnail), waiting its turn to decode. */
export function makePreviewInTurn(image: Uint8Array): Promise<Preview> {
  return decoding.run(() => makePreview(image));
}

/** Stores a preview's small image. */
export function savePreview(config: Config, mediaId: string, preview: Preview): Promise<string> {
  return saveMediaFile(config, folders(mediaId, "small"), preview.small.extension, preview.small.data);
}

/** A still image: upright, without metadata, at most Mastodon's 3840×2160 pixels, with its preview. */
export async function processStill(config: Config, mediaId: string, bytes: Uint8Array): Promise<ProcessedFiles> {
  const info = await inspectUploadedImage(bytes);
  const { original, preview } = await decoding.run(async () => {
    try {
      const original = await encodeImage(bytes, info, { maxPixels: ORIGINAL_MAX_PIXELS }, MEDIA_LIMITS.imageMatrixLimit);
      return { original, preview: await makePreview(original.data) };
    } catch (error) {
      if (error instanceof UnsupportedImage) throw new RejectedUpload("File type of uploaded media could not be verified");
      throw error;
    }
  });
  const fileUrl = await saveMediaFile(config, folders(mediaId, "original"), original.extension, original.data);
  try {
    return {
      type: "image",
      fileUrl,
      previewUrl: await savePreview(config, mediaId, preview),
      contentType: original.contentType,
      fileSize: original.data.byteLength,
      meta: { original: imageMeta(original), small: imageMeta(preview.small), colors: preview.colors },
      blurhash: preview.blurhash,
    };
  } catch (error) {
    await deleteMediaFile(config, fileUrl);
    throw error;
  }
}

/** Whether this machine can process video and audio; the message says what to install when not. */
export function audioVisualSupport(): { ok: true } | { ok: false; message: string } {
  return findFfmpeg() ? { ok: true } : { ok: false, message: FFMPEG_MISSING };
}

/** Probes a waiting upload and refuses (RejectedUpload) what is past Mastodon's video limits, before any transcode. */
export async function checkAudioVisualUpload(config: Config, pendingFile: string, isGif: boolean): Promise<void> {
  const tools = findFfmpeg();
  if (!tools) throw new RejectedUpload(FFMPEG_MISSING);
  try {
    await checkAudioVisual(tools, incomingPath(config, pendingFile), avLimits(config), isGif);
  } catch (error) {
    if (error instanceof UnsupportedMedia) throw new RejectedUpload(error.message);
    throw error;
  }
}

/** Video, gifv or audio from its waiting copy (`pendingFile`). RejectedUpload for what ffmpeg cannot take. */
export async function processAudioVisualUpload(config: Config, mediaId: string, pendingFile: string, isGif: boolean): Promise<ProcessedFiles> {
  const tools = findFfmpeg();
  if (!tools) throw new RejectedUpload(FFMPEG_MISSING);
  return withScratchFolder(config, async (dir) => {
    let processed;
    try {
      processed = await processAudioVisual(tools, incomingPath(config, pendingFile), dir, avLimits(config), isGif);
    } catch (error) {
      if (error instanceof UnsupportedMedia) throw new RejectedUpload(error.message);
      throw error;
    }
    // Audio has no frame: its preview is a plain tile, as clients show a poster above the player.
    const preview = await makePreview(processed.previewFrame ?? (await audioTile()));
    const previewUrl = await savePreview(config, mediaId, preview);
    const fileUrl = await adoptMediaFile(config, folders(mediaId, "original"), processed.file.extension, processed.file.path);
    const meta: Record<string, unknown> = { ...processed.meta, colors: preview.colors };
    if (processed.previewFrame) meta.small = imageMeta(preview.small);
    return {
      type: processed.type,
      fileUrl,
      previewUrl,
      contentType: processed.file.contentType,
      fileSize: processed.file.size,
      meta,
      blurhash: preview.blurhash,
    };
  });
}

let tile: Promise<Buffer> | null = null;
/** A 400×400 tile in Warren's purple, drawn once per process. */
const audioTile = () => (tile ??= loadSharp().then((sharp) => sharp({ create: { width: 400, height: 400, channels: 3, background: "#563acc" } }).png().toBuffer()));
