// What an upload is, from its first bytes (never from its name or the client's content type): the kind of
// attachment it becomes and the extension its waiting copy gets. Anything else is refused.
import { fileTypeFromBuffer } from "file-type";

export type UploadKind = "image" | "video" | "audio";

export interface Sniffed {
  kind: UploadKind;
  mime: string;
  extension: string;
}

/** Enough for every signature file-type knows. */
const HEAD_BYTES = 64 * 1024;

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif", "image/heic", "image/heif"]);
const VIDEO_TYPES = new Set(["video/mp4", "video/quicktime", "video/webm", "video/x-matroska", "video/ogg", "video/x-m4v", "video/3gpp", "video/x-ms-asf", "video/vnd.avi", "video/mp2t"]);
const AUDIO_TYPES = new Set(["audio/mpeg", "audio/ogg", "audio/opus", "audio/wav", "audio/vnd.wave", "audio/x-wav", "audio/flac", "audio/x-flac", "audio/aac", "audio/x-m4a", "audio/mp4", "audio/webm", "audio/3gpp"]);

/** The kind of upload the bytes are, or null for anything we do not take. */
export async function sniffUpload(upload: Blob): Promise<Sniffed | null> {
  const head = new Uint8Array(await upload.slice(0, HEAD_BYTES).arrayBuffer());
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!found) return null;
  const kind: UploadKind | null = IMAGE_TYPES.has(found.mime) ? "image" : VIDEO_TYPES.has(found.mime) ? "video" : AUDIO_TYPES.has(found.mime) ? "audio" : null;
  return kind ? { kind, mime: found.mime, extension: found.ext } : null;
}
