// GET /system/*: stored media files (avatars, headers) from `<dataDir>/media`. Names are random and never
// reused, so answers are cacheable for a year. Paths that could leave the media directory, dot files and
// unknown extensions are 404, like missing files.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { NotFound } from "../lib/errors.ts";
import { isFile, mediaFileFor } from "../media/storage.ts";
import { ErrorBody } from "./schemas.ts";
import { cachePlugin } from "./plugins/cache.ts";

export const mediaFileRoutes = (deps: Deps) =>
  new Elysia({ name: "media-file-routes", seed: deps.store.dir })
    .use(cachePlugin)
    .get(
      "/system/*",
      async ({ request, set }) => {
        // The raw path, not Elysia's decoded parameter: each segment is decoded and checked on its own.
        const target = mediaFileFor(deps.config, new URL(request.url).pathname);
        if (!target || !(await isFile(target.file))) throw new NotFound();
        set.headers["content-type"] = target.contentType;
        set.headers["cache-control"] = "public, max-age=31536000, immutable";
        set.headers["x-content-type-options"] = "nosniff";
        return Bun.file(target.file);
      },
      {
        response: { 200: t.Any({ description: "The image file (image/png, image/jpeg …)" }), 404: ErrorBody },
        detail: { summary: "A stored media file (avatar, header)", tags: ["media"] },
      },
    );
