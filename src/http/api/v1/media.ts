// Media: POST /api/v1/media (waits for processing), GET/PUT/DELETE /api/v1/media/:id. The v2 upload is in
// api/v2/media.ts. Only the uploader's own attachments exist for them; every call needs write:media.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { MEDIA_LIMITS } from "../../../domain/limits.ts";
import { deleteMedia, showMedia, updateMedia } from "../../../domain/media/manage.ts";
import { uploadMedia } from "../../../domain/media/upload.ts";
import { Unprocessable } from "../../../lib/errors.ts";
import { MediaAttachmentSchema, presentMediaAttachment } from "../../../entities/media-attachment.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { uploadLimit } from "../../plugins/body-limits.ts";
import { EmptyObject, ErrorBody } from "../../schemas.ts";
import { releaseUploads } from "../../plugins/params.ts";
import type { MediaRecord } from "../../../model/media.ts";

/** The largest upload (a video) with a thumbnail and the text fields beside it. */
const UPLOAD_BODY_LIMIT = MEDIA_LIMITS.videoSizeLimit + MEDIA_LIMITS.imageSizeLimit + 1024 * 1024;

const fileFields = {
  thumbnail: t.Optional(t.Any({ description: "A custom preview image (multipart), shown instead of the generated one" })),
  description: t.Optional(t.String({ description: `Alt text, at most ${MEDIA_LIMITS.descriptionLimit} characters` })),
  focus: t.Optional(t.String({ description: "Focal point: two numbers within -1..1, as x,y (0,0 is the centre)" })),
};

export const UploadBody = uploadLimit(
  t.Object({
    // Checked by the domain from the file's bytes, so that a wrong upload is Mastodon's 422, not a schema error.
    file: t.Optional(
      t.Any({
        description: `The file (multipart): an image (JPEG, PNG, GIF, WebP, AVIF; at most ${MEDIA_LIMITS.imageSizeLimit} bytes), or a video or audio file (at most ${MEDIA_LIMITS.videoSizeLimit} bytes)`,
      }),
    ),
    ...fileFields,
  }),
  UPLOAD_BODY_LIMIT,
);

const UpdateBody = uploadLimit(t.Object(fileFields), MEDIA_LIMITS.imageSizeLimit + 1024 * 1024);

const MediaIdParams = t.Object({ id: t.String({ description: "Media attachment id" }) });
export const mediaErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 422: ErrorBody };
export const MEDIA_SCOPES = ["write:media"];

/** 206 while a video or audio file is processed, 422 when it could not be. */
function processedOr206(media: MediaRecord, set: { status?: number | string }) {
  if (media.state === "failed") throw new Unprocessable(media.error ?? "Error processing media");
  if (media.state === "processing") set.status = 206;
}

export const mediaV1Routes = (deps: Deps) =>
  new Elysia({ name: "media-v1-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post(
      "/api/v1/media",
      async ({ viewer, body }) => presentMediaAttachment(deps.config, await uploadMedia(deps, viewer.account, body, "wait")),
      {
        auth: MEDIA_SCOPES,
        body: UploadBody,
        afterHandle: releaseUploads,
        response: { 200: MediaAttachmentSchema, ...mediaErrors },
        detail: { summary: "Upload a file and wait for it to be processed (deprecated: use /api/v2/media)", tags: ["media"] },
      },
    )
    .get(
      "/api/v1/media/:id",
      ({ viewer, params, set }) => {
        const media = showMedia(deps, viewer.account.id, params.id);
        processedOr206(media, set);
        return presentMediaAttachment(deps.config, media);
      },
      {
        auth: MEDIA_SCOPES,
        params: MediaIdParams,
        response: { 200: MediaAttachmentSchema, 206: MediaAttachmentSchema, ...mediaErrors },
        detail: { summary: "One of your uploads on no status yet: 206 while it is processed, 200 when done", tags: ["media"] },
      },
    )
    .put(
      "/api/v1/media/:id",
      async ({ viewer, params, body, set }) => {
        const media = await updateMedia(deps, viewer.account.id, params.id, body ?? {});
        processedOr206(media, set);
        return presentMediaAttachment(deps.config, media);
      },
      {
        auth: MEDIA_SCOPES,
        params: MediaIdParams,
        body: UpdateBody,
        afterHandle: releaseUploads,
        response: { 200: MediaAttachmentSchema, 206: MediaAttachmentSchema, ...mediaErrors },
        detail: { summary: "Change the description, focus or thumbnail of one of your uploads (also once on a status)", tags: ["media"] },
      },
    )
    .delete(
      "/api/v1/media/:id",
      async ({ viewer, params }) => {
        await deleteMedia(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: MEDIA_SCOPES,
        params: MediaIdParams,
        response: { 200: EmptyObject, ...mediaErrors },
        detail: { summary: "Delete one of your uploads (422 while it is on a status)", tags: ["media"] },
      },
    );
