// ScheduledStatus (API.md §4.14): when, the post's parameters as Mastodon echoes them, and its attachments.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { publicId } from "../lib/ids.ts";
import { Int } from "./integer.ts";
import { MediaAttachmentSchema, presentMediaAttachment } from "./media-attachment.ts";
import { Nullable } from "./nullable.ts";
import type { MediaRecord } from "../model/media.ts";
import type { ScheduledStatusRecord } from "../model/statuses.ts";

const ParamsSchema = t.Object({
  text: t.String(),
  poll: Nullable(t.Object({ options: t.Array(t.String()), expires_in: Int(), multiple: t.Boolean(), hide_totals: t.Boolean() })),
  media_ids: Nullable(t.Array(t.String())),
  sensitive: t.Boolean(),
  spoiler_text: t.String(),
  visibility: t.String({ description: "public, unlisted, private or direct" }),
  in_reply_to_id: Nullable(t.String()),
  language: Nullable(t.String()),
  application_id: Nullable(t.String()),
  scheduled_at: t.Null(),
  idempotency: t.Null(),
  with_rate_limit: t.Boolean(),
  allowed_mentions: t.Null(),
  quoted_status_id: Nullable(t.String()),
  quote_approval_policy: Nullable(t.String({ description: "public, followers or nobody" })),
});

export const ScheduledStatusSchema = t.Object(
  { id: t.String(), scheduled_at: t.String(), params: ParamsSchema, media_attachments: t.Array(MediaAttachmentSchema) },
  { description: "A status to be posted at scheduled_at" },
);

export type ScheduledStatus = Static<typeof ScheduledStatusSchema>;

export function presentScheduledStatus(config: Config, record: ScheduledStatusRecord, media: readonly MediaRecord[]): ScheduledStatus {
  const { params } = record;
  const poll = params.poll;
  return {
    id: publicId(record.id),
    scheduled_at: new Date(record.scheduledAt).toISOString(),
    params: {
      text: params.text,
      poll: poll && { options: poll.options, expires_in: poll.expiresInSeconds, multiple: poll.multiple, hide_totals: poll.hideTotals },
      media_ids: params.mediaIds.length ? params.mediaIds.map(publicId) : null,
      sensitive: params.sensitive,
      spoiler_text: params.spoilerText,
      visibility: params.visibility,
      in_reply_to_id: params.inReplyToId ? publicId(params.inReplyToId) : null,
      language: params.language,
      application_id: params.applicationId,
      scheduled_at: null,
      idempotency: null,
      with_rate_limit: false,
      allowed_mentions: null,
      quoted_status_id: params.quotedStatusId ? publicId(params.quotedStatusId) : null,
      quote_approval_policy: params.quotePolicy ?? null,
    },
    media_attachments: media.map((m) => presentMediaAttachment(config, m)),
  };
}
