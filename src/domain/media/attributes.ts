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

/** A custom thumbnail, checked and shrunk; undefined or "" (an empty form field) mean none. */
export async function prepareThumbnail(upload: unknown): Promise<PreparedThumbnail | null> {
  if (upload === undefined || upload === "") return null;
  if (!(upload instanceof UploadedFile) || upload.size === 0) throw new Unprocessable("Validation failed: Thumbnail content type is invalid");
  if (upload.size > MEDIA_LIMITS.imageSizeLimit) {
    throw new Unprocessable(`Validation failed: Thumbnail file size must be less than ${Math.round(MEDIA_LIMITS.imageSizeLimit / 1024 / 1024)} MB`);
  }
  const bytes = await upload.bytes();
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
