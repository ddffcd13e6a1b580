// The instance's default artwork: the thumbnail (link previews, server pickers) and the app icons, drawn from
// SVG with sharp the first time they are asked for and kept in memory (they never change while running).
// The thumbnail's BlurHash is a constant, checked against a rendering by the tests.
import { loadSharp } from "../../media/sharp.ts";
import { encodeBlurhash } from "../../media/blurhash.ts";

export const THUMBNAIL_WIDTH = 1200;
export const THUMBNAIL_HEIGHT = 630;
/** Mastodon's SiteUpload::ANDROID_ICON_SIZES */
export const ICON_SIZES = [36, 48, 72, 96, 144, 192, 256, 384, 512] as const;
export const THUMBNAIL_DESCRIPTION = "Two rabbit ears peek out of a burrow in a green hill under an evening sky";

/** Ears rising from a burrow whose centre is at (x, y): cut off at the centre line so they come out of it. */
const EARS = (x: number, y: number, s: number) => `
  <clipPath id="above"><rect x="0" y="0" width="100%" height="${y}"/></clipPath>
  <g clip-path="url(#above)"><g transform="translate(${x} ${y + 20 * s}) scale(${s})">
    <ellipse cx="-22" cy="-70" rx="19" ry="72" transform="rotate(-12 -22 0)" fill="#e9dfd2"/>
    <ellipse cx="-22" cy="-66" rx="9" ry="56" transform="rotate(-12 -22 0)" fill="#e7a4a0"/>
    <ellipse cx="24" cy="-66" rx="19" ry="68" transform="rotate(14 24 0)" fill="#e9dfd2"/>
    <ellipse cx="24" cy="-62" rx="9" ry="52" transform="rotate(14 24 0)" fill="#e7a4a0"/>
  </g></g>`;

const THUMBNAIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL_WIDTH}" height="${THUMBNAIL_HEIGHT}" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#2c3e66"/><stop offset="0.65" stop-color="#c9876a"/><stop offset="1" stop-color="#f0c27b"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#sky)"/>
  <circle cx="930" cy="330" r="70" fill="#f7dc8f"/>
  <path d="M0 420 C 250 330 520 360 760 410 S 1100 400 1200 370 L 1200 630 L 0 630 Z" fill="#5d8c4f"/>
  <path d="M0 500 C 300 420 700 430 1200 500 L 1200 630 L 0 630 Z" fill="#3f6b37"/>
  <ellipse cx="560" cy="520" rx="105" ry="46" fill="#6b4a2f"/>
  <ellipse cx="560" cy="522" rx="86" ry="34" fill="#24170f"/>
  ${EARS(560, 522, 1)}
</svg>`;

const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6fa35c"/><stop offset="1" stop-color="#355f2e"/></linearGradient>
  </defs>
  <rect width="512" height="512" rx="112" fill="url(#bg)"/>
  <ellipse cx="256" cy="380" rx="170" ry="72" fill="#6b4a2f"/>
  <ellipse cx="256" cy="384" rx="142" ry="54" fill="#24170f"/>
  ${EARS(256, 384, 2)}
</svg>`;

const rendered = new Map<string, Promise<Buffer>>();

function once(key: string, render: () => Promise<Buffer>): Promise<Buffer> {
  let png = rendered.get(key);
  if (!png) {
    png = render();
    rendered.set(key, png);
  }
  return png;
}

/** The thumbnail as PNG at 1× (1200×630) or 2× (2400×1260). */
export function thumbnailPng(scale: 1 | 2): Promise<Buffer> {
  return once(`thumbnail@${scale}`, () => loadSharp().then((sharp) => sharp(Buffer.from(THUMBNAIL_SVG), { density: 72 * scale }).png().toBuffer()));
}

/** The app icon as a square PNG of one of ICON_SIZES. */
export function iconPng(size: (typeof ICON_SIZES)[number]): Promise<Buffer> {
  return once(`icon-${size}`, () => loadSharp().then((sharp) => sharp(Buffer.from(ICON_SVG)).resize(size, size).png().toBuffer()));
}

/**
 * BlurHash of the thumbnail (`thumbnail.blurhash` of the instance): drawThumbnailBlurhash's result, written
 * down so that the first instance answer after a start needs neither sharp nor a rendering (~45 ms).
 * tests/domain/instance-artwork.test.ts draws it again: change both with the artwork.
 */
export const THUMBNAIL_BLURHASH = "LTDlyKR+W.t6m^jun+a}0#s.a|R+";

/** BlurHash of the thumbnail, computed from a small rendering. */
export async function drawThumbnailBlurhash(): Promise<string> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(Buffer.from(THUMBNAIL_SVG)).resize(64, 34).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return encodeBlurhash(data, info.width, info.height);
}
