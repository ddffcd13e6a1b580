// The default avatar and header (`…/missing.png`) that Account entities point to when none is set.
// Plain PNGs in Mastodon's light grey-blue, rendered once on first request.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { DEFAULT_AVATAR_PATH, DEFAULT_HEADER_PATH } from "../../../../entities/account.ts";
import { cachePlugin } from "../../../plugins/cache.ts";

const COLOUR = "#d9e1e8";
const cache = new Map<string, Promise<Uint8Array>>();

function solidPng(width: number, height: number): Promise<Uint8Array> {
  const key = `${width}x${height}`;
  let png = cache.get(key);
  if (!png) {
    png = import("sharp").then(({ default: sharp }) =>
      sharp({ create: { width, height, channels: 3, background: COLOUR } }).png({ compressionLevel: 9 }).toBuffer(),
    );
    png.catch(() => cache.delete(key));
    cache.set(key, png);
  }
  return png;
}

async function pngResponse(width: number, height: number): Promise<Response> {
  return new Response(await solidPng(width, height), {
    headers: { "content-type": "image/png", "cache-control": "public, max-age=86400, immutable", vary: "Authorization" },
  });
}

const detail = (what: string) => ({ summary: `Default ${what} image (PNG)`, tags: ["accounts"] });
const response = { 200: t.Any({ description: "image/png" }) };

export const defaultImageRoutes = (deps: Deps) =>
  new Elysia({ name: "accounts-default-image-routes", seed: deps.store.dir })
    .use(cachePlugin)
    .get(DEFAULT_AVATAR_PATH, () => pngResponse(400, 400), { response, detail: detail("avatar") })
    .get(DEFAULT_HEADER_PATH, () => pngResponse(1500, 500), { response, detail: detail("header") });
