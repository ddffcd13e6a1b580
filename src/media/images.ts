// Still images with sharp: what an upload really is (read from its bytes, never from the client's content
// type) and the re-encoded copy we keep. Output is stripped of metadata (EXIF, GPS, ICC; colours converted
// to sRGB), turned upright by its EXIF orientation, PNG when the image has an alpha channel and JPEG
// otherwise. Animated images keep their first frame only.
import type { Metadata } from "sharp";
// Every upload is a different image: loadSharp turns libvips' operation cache off (it would only hold memory).
import { loadSharp } from "./sharp.ts";

/** Formats accepted for upload: Mastodon's jpeg/png/gif/webp, plus AVIF (which this sharp build decodes). */
const ACCEPTED = new Set(["jpeg", "png", "gif", "webp", "avif"]);

export interface ImageInfo {
  format: string;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** Frames of an animated image (libvips counts them from the file's structure, without decoding); 1 otherwise. */
  pages: number;
}

export interface EncodedImage {
  data: Buffer;
  extension: "png" | "jpg";
  contentType: "image/png" | "image/jpeg";
  width: number;
  height: number;
}

/** How an image is resized: cropped to a centred square of at most `side`, or shrunk to at most `maxPixels`. */
export type Geometry = { square: number } | { maxPixels: number };

/** The bytes are not an image we accept (unknown, corrupt, SVG, TIFF, HEVC-coded HEIC…). */
export class UnsupportedImage extends Error {}

/** Reads the header only: format, upright size and alpha. Throws UnsupportedImage. */
export async function inspectImage(bytes: Uint8Array): Promise<ImageInfo> {
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Header only: sharp's default pixel limit would make a huge image "not an image" instead of too large.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnsupportedImage("not an image");
  }
  // libheif reports AVIF and HEIC both as "heif"; only AV1-coded ones decode here.
  const format = meta.format === "heif" ? (meta.compression === "av1" ? "avif" : "heic") : meta.format;
  const { width, height } = meta.autoOrient ?? meta;
  if (!format || !ACCEPTED.has(format) || !width || !height) throw new UnsupportedImage(`unsupported format ${format}`);
  return { format, width, height, hasAlpha: meta.hasAlpha ?? false, pages: meta.pages ?? 1 };
}

/** The target size for an upright image of `width`×`height`; images are never enlarged (as Mastodon). */
export function targetSize(geometry: Geometry, width: number, height: number): { width: number; height: number } {
  if ("square" in geometry) {
    const side = Math.min(geometry.square, width, height);
    return { width: side, height: side };
  }
  if (width * height <= geometry.maxPixels) return { width, height };
  return {
    width: Math.max(1, Math.floor(Math.sqrt((geometry.maxPixels * width) / height))),
    height: Math.max(1, Math.floor(Math.sqrt((geometry.maxPixels * height) / width))),
  };
}

/**
 * Decodes, orients, resizes and re-encodes. `maxInputPixels` bounds the decoded size (decompression bombs).
 * Throws UnsupportedImage when the bytes do not decode.
 */
export async function encodeImage(bytes: Uint8Array, info: ImageInfo, geometry: Geometry, maxInputPixels: number): Promise<EncodedImage> {
  const size = targetSize(geometry, info.width, info.height);
  const sharp = await loadSharp();
  const pipeline = sharp(bytes, { limitInputPixels: maxInputPixels, failOn: "error" })
    .autoOrient()
    .resize(size.width, size.height, { fit: "cover", position: "centre" });
  try {
    if (info.hasAlpha) {
      const data = await pipeline.png({ compressionLevel: 9 }).toBuffer();
      return { data, extension: "png", contentType: "image/png", ...size };
    }
    const data = await pipeline.jpeg({ quality: 90 }).toBuffer();
    return { data, extension: "jpg", contentType: "image/jpeg", ...size };
  } catch {
    throw new UnsupportedImage("does not decode");
  }
}
