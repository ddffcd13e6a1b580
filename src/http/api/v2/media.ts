// POST /api/v2/media: images are processed in the request (200); video, gifv and audio answer 202 with
// `url: null` and are processed by a job (poll GET /api/v1/media/:id).
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { uploadMedia } from "../../../domain/media/upload.ts";
import { MediaAttachmentSchema, presentMediaAttachment } from "../../../entities/media-attachment.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { MEDIA_SCOPES, mediaErrors, UploadBody } from "../v1/media.ts";
import { releaseUploads } from "../../plugins/params.ts";

export const mediaV2Routes = (deps: Deps) =>
  new Elysia({ name: "media-v2-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post(
      "/api/v2/media",
      async ({ viewer, body, set }) => {
        const media = await uploadMedia(deps, viewer.account, body, "queued");
        if (media.state === "processing") set.status = 202;
        return presentMediaAttachment(deps.config, media);
      },
      {
        auth: MEDIA_SCOPES,
        body: UploadBody,
        afterHandle: releaseUploads,
        response: { 200: MediaAttachmentSchema, 202: MediaAttachmentSchema, ...mediaErrors },
        detail: { summary: "Upload a file: images are ready at once (200), video and audio are processed next (202)", tags: ["media"] },
      },
    );
