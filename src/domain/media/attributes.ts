// What the uploader says about an attachment, on upload and on PUT /api/v1/media/:id: the description (alt
// text), the focal point and a custom thumbnail.
import type { Config } from "../../config.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { cleanText } from "../../lib/text.ts";
import { UploadedFile } from "../../lib/uploaded-file.ts";
import type { Preview } from "../../media/previews.ts";
import { MEDIA_LIMITS } from "../limits.ts";
import { inspectUploadedImage, makePreviewInTurn, RejectedUpload, savePreview } from "./files.ts";
import type { Focus } from "../../model/media.ts";

/** The description as stored: null when blank; 422 past the limit the instance reports (in characters). */
export function checkDescription(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const text = cleanText(raw).trim();
  if ([...text].length > MEDIA_LIMITS.descriptionLimit) {
    throw new Unprocessable(`Validation failed: Description is too long (maximum is ${MEDIA_LIMITS.descriptionLimit} characters)`);
  }
  return text === "" ? null : text;
}

const COORDINATE = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;

/** Mastodon's `focus=x,y`, each within -1..1 (centre 0,0); blank is no focal point. */
export function parseFocus(raw: string | undefined): Focus | null {
  if (raw === undefined || raw.trim() === "") return null;
  const parts = raw.split(",");
  if (parts.length !== 2 || !parts.every((part) => COORDINATE.test(part))) {
    throw new Unprocessable("Validation failed: Focus must be two numbers between -1.0 and 1.0, as x,y");
  }
  const [x, y] = parts.map(Number) as [number, number];
  if (Math.abs(x) > 1 || Math.abs(y) > 1) throw new Unprocessable("Validation failed: Focus must be two numbers between -1.0 and 1.0, as x,y");
  return { x, y };
}

export type PreparedThumbnail = Preview;

/** `data:image/png;base64,…`, as Mastodon.py sends a thumbnail in media_attributes (Paperclip reads these). */
const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]*)$/;

const tooLarge = () =>
  new Unprocessable(`Validation failed: Thumbnail file size must be less than ${Math.round(MEDIA_LIMITS.imageSizeLimit / 1024 / 1024)} MB`);

async function thumbnailBytes(upload: unknown): Promise<Uint8Array> {
  const invalid = new Unprocessable("Validation failed: Thumbnail content type is invalid");
  if (typeof upload === "string") {
    const base64 = DATA_URI.exec(upload)?.[1];
    if (!base64) throw invalid;
    const bytes = new Uint8Array(Buffer.from(base64, "base64"));
    if (bytes.length === 0) throw invalid;
    if (bytes.length > MEDIA_LIMITS.imageSizeLimit) throw tooLarge();
    return bytes;
  }
  if (!(upload instanceof UploadedFile) || upload.size === 0) throw invalid;
  if (upload.size > MEDIA_LIMITS.imageSizeLimit) throw tooLarge();
  return upload.bytes();
}

/** A custom thumbnail (an uploaded file or a data: URI), checked and shrunk; undefined or "" (an empty form field) mean none. */
export async function prepareThumbnail(upload: unknown): Promise<PreparedThumbnail | null> {
  if (upload === undefined || upload === "") return null;
  const bytes = await thumbnailBytes(upload);
  try {
    await inspectUploadedImage(bytes);
    return await makePreviewInTurn(bytes);
  } catch (error) {
    if (error instanceof RejectedUpload) throw new Unprocessable(error.message.replace("File", "Thumbnail"));
    throw error;
  }
}

export function saveThumbnail(config: Config, mediaId: string, thumbnail: PreparedThumbnail): Promise<string> {
  return savePreview(config, mediaId, thumbnail);
}
