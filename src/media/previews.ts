// What an attachment shows before it is opened: the `small` preview (Mastodon's 640×360-pixel budget), its
// blurhash (drawn from a 32-pixel miniature) and `meta.colors` (the dominant colour as background, black or
// white on it as foreground, the image's mean colour as accent: what players paint around audio).
import { loadSharp } from "./sharp.ts";
import { encodeBlurhash } from "./blurhash.ts";
import { encodeImage, inspectImage, type EncodedImage } from "./images.ts";

/** Mastodon's pixel budgets: the stored original (3840×2160) and the preview (640×360). */
export const ORIGINAL_MAX_PIXELS = 3840 * 2160;
export const SMALL_MAX_PIXELS = 640 * 360;

export interface Colors {
  background: string;
  foreground: string;
  accent: string;
}

export interface Preview {
  small: EncodedImage;
  blurhash: string;
  colors: Colors;
}

const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

async function blurhashOf(image: Uint8Array): Promise<string> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(image).resize(32, 32, { fit: "inside" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return encodeBlurhash(data, info.width, info.height);
}

async function colorsOf(image: Uint8Array): Promise<Colors> {
  const sharp = await loadSharp();
  const stats = await sharp(image).removeAlpha().stats();
  const { r, g, b } = stats.dominant;
  const [mr = 0, mg = 0, mb = 0] = stats.channels.map((channel) => channel.mean);
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return { background: hex(r, g, b), foreground: luminance > 140 ? "#000000" : "#ffffff", accent: hex(mr, mg, mb) };
}

/** The preview of an already checked, upright image (a processed original, a video frame, a thumbnail). */
export async function previewOf(image: Uint8Array, maxInputPixels: number): Promise<Preview> {
  const info = await inspectImage(image);
  const small = await encodeImage(image, info, { maxPixels: SMALL_MAX_PIXELS }, maxInputPixels);
  const [blurhash, colors] = await Promise.all([blurhashOf(small.data), colorsOf(small.data)]);
  return { small, blurhash, colors };
}

/** `meta.original` / `meta.small` of an image. */
export function imageMeta(image: { width: number; height: number }): { width: number; height: number; size: string; aspect: number } {
  return { width: image.width, height: image.height, size: `${image.width}x${image.height}`, aspect: image.width / image.height };
}
