// PUT /api/v1/statuses/:id (edit), GET /api/v1/statuses/:id/history, GET /api/v1/statuses/:id/source.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { editStatus } from "../../../../domain/statuses/edit.ts";
import { statusHistory, statusSource } from "../../../../domain/statuses/history.ts";
import { MEDIA_LIMITS } from "../../../../domain/limits.ts";
import { StatusSchema } from "../../../../entities/status.ts";
import { presentStatusEdits, presentStatusSource, StatusEditSchema, StatusSourceSchema } from "../../../../entities/status-edit.ts";
import { statusFor } from "../../../present.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { uploadLimit } from "../../../plugins/body-limits.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { Flag } from "../../../schemas.ts";
import { list, optionalFlag, PollParams, pollInput } from "./core.ts";
import { actionErrors, readErrors, StatusIdParams } from "./shared.ts";
import { QuotePolicyParam } from "./quotes.ts";

const MediaAttributes = t.Object({
  id: t.String({ description: "An attachment of the status" }),
  description: t.Optional(t.String({ description: `Alt text, at most ${MEDIA_LIMITS.descriptionLimit} characters` })),
  focus: t.Optional(t.String({ description: "x,y within -1..1" })),
  thumbnail: t.Optional(t.Any({ description: "A new thumbnail: a file (multipart) or a data: URI (data:image/jpeg;base64,…)" })),
});

/** One thumbnail's worth (base64 grows it by a third) beside the rest of an edit. */
const EDIT_BODY_LIMIT = Math.ceil((MEDIA_LIMITS.imageSizeLimit * 4) / 3) + 1024 * 1024;

const EditBody = uploadLimit(t.Object({
  status: t.Optional(t.String({ description: "The new text (left out: unchanged)" })),
  spoiler_text: t.Optional(t.String()),
  sensitive: t.Optional(Flag()),
  language: t.Optional(t.String()),
  media_ids: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "The attachments after the edit (left out: unchanged)" })),
  media_attributes: t.Optional(
    t.Union([t.Array(MediaAttributes), t.Record(t.String(), MediaAttributes)], {
      description: "media_attributes[][id]=…&media_attributes[][description]=…: descriptions, focal points and thumbnails of the attachments",
    }),
  ),
  poll: t.Optional(PollParams),
  quote_approval_policy: t.Optional(QuotePolicyParam),
}), EDIT_BODY_LIMIT);

export const statusEditRoutes = (deps: Deps) =>
  new Elysia({ name: "status-edit-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .put(
      "/api/v1/statuses/:id",
      async ({ viewer, params, body }) =>
        statusFor(
          deps,
          viewer,
          await editStatus(deps, viewer, params.id, {
            status: body.status,
            spoilerText: body.spoiler_text,
            sensitive: optionalFlag(body.sensitive),
            language: body.language,
            mediaIds: body.media_ids === undefined ? undefined : list(body.media_ids),
            mediaAttributes: body.media_attributes && (Array.isArray(body.media_attributes) ? body.media_attributes : Object.values(body.media_attributes)),
            poll: pollInput(body.poll),
            quotePolicy: body.quote_approval_policy,
          }),
        ),
      {
        auth: ["write:statuses"],
        params: StatusIdParams,
        body: EditBody,
        response: { 200: StatusSchema, ...actionErrors },
        detail: { summary: "Edit your status; an edit without a poll removes it, a changed poll starts afresh", tags: ["statuses"] },
      },
    )
    .get("/api/v1/statuses/:id/history", ({ viewer, params }) => presentStatusEdits(deps.config, statusHistory(deps, viewer?.account?.id ?? null, params.id)), {
      maybeAuth: ["read:statuses"],
      publicCache: 15,
      params: StatusIdParams,
      response: { 200: t.Array(StatusEditSchema), ...readErrors },
      detail: { summary: "The versions of a status, the original first", tags: ["statuses"] },
    })
    .get("/api/v1/statuses/:id/source", ({ viewer, params }) => presentStatusSource(statusSource(deps, viewer.account.id, params.id)), {
      auth: ["read:statuses"],
      params: StatusIdParams,
      response: { 200: StatusSourceSchema, ...actionErrors },
      detail: { summary: "The text and content warning as typed, to edit them", tags: ["statuses"] },
    });
