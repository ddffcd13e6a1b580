// What an upload is, from its first bytes (never from its name or the client's content type): the kind of
// attachment it becomes and the extension its waiting copy gets. Only the types the instance reports
// (media/mime-types.ts, reported as MEDIA_LIMITS.supportedMimeTypes) are taken.
import { SUPPORTED_MIME_TYPES } from "./mime-types.ts";

export type UploadKind = "image" | "video" | "audio";

export interface Sniffed {
  kind: UploadKind;
  /** One of SUPPORTED_MIME_TYPES. */
  mime: string;
  extension: string;
}

/** Enough for every signature file-type knows. */
const HEAD_BYTES = 64 * 1024;

/** file-type's names for types the instance lists under another name. */
const ALIASES: Record<string, string> = {
  "audio/ogg; codecs=opus": "audio/ogg",
  "application/ogg": "audio/ogg",
  "video/x-m4v": "video/mp4",
  "application/vnd.ms-asf": "video/x-ms-asf",
  "audio/x-ms-asf": "video/x-ms-asf",
};

const SUPPORTED = new Set<string>(SUPPORTED_MIME_TYPES);

/** The kind of upload the bytes are, or null for anything we do not take. */
export async function sniffUpload(upload: Blob): Promise<Sniffed | null> {
  const head = new Uint8Array(await upload.slice(0, HEAD_BYTES).arrayBuffer());
  // Loaded with the first upload, not at start-up (~16 ms of the server's import: docs/benchmarks.md).
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!found) return null;
  const mime = ALIASES[found.mime] ?? found.mime;
  if (!SUPPORTED.has(mime)) return null;
  const kind = mime.split("/")[0] as UploadKind;
  return { kind, mime, extension: found.ext };
}
