// The instance artwork: GET /instance/thumbnail.png (1200×630), /instance/thumbnail@2x.png and
// /instance/icons/WxW.png (Mastodon's icon sizes). Drawn once, then served from memory; cached a week.
import { Elysia, t } from "elysia";
import { NotFound } from "../../lib/errors.ts";
import { ICON_SIZES, iconPng, thumbnailPng } from "../../domain/instance/artwork.ts";
import { ErrorBody } from "../schemas.ts";

/** Set on the image itself, so that a 404 for an unknown size is not cached for a week. */
const WEEK_CACHE = "public, max-age=604800";
const tags = ["instance"];
const Png = t.Any({ description: "image/png" });

const png = (bytes: Buffer) =>
  new Response(new Uint8Array(bytes), { headers: { "content-type": "image/png", "cache-control": WEEK_CACHE, vary: "Authorization" } });

function iconSize(file: string): (typeof ICON_SIZES)[number] {
  const match = /^(\d{1,4})x\1\.png$/.exec(file);
  const size = ICON_SIZES.find((s) => String(s) === match?.[1]);
  if (!size) throw new NotFound();
  return size;
}

export const instanceAssetRoutes = () =>
  new Elysia({ name: "instance-asset-routes" })
    .get("/instance/thumbnail.png", async () => png(await thumbnailPng(1)), {
      response: { 200: Png },
      detail: { summary: "Instance thumbnail (1200×630 PNG)", tags },
    })
    .get("/instance/thumbnail@2x.png", async () => png(await thumbnailPng(2)), {
      response: { 200: Png },
      detail: { summary: "Instance thumbnail at twice the size (2400×1260 PNG)", tags },
    })
    .get("/instance/icons/:file", async ({ params }) => png(await iconPng(iconSize(params.file))), {
      params: t.Object({ file: t.String({ description: `SIZExSIZE.png, SIZE one of ${ICON_SIZES.join(", ")}` }) }),
      response: { 200: Png, 404: ErrorBody },
      detail: { summary: "Instance icon (square PNG)", tags },
    });
