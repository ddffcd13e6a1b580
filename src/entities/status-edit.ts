// StatusEdit (GET /api/v1/statuses/:id/history) and StatusSource (GET /api/v1/statuses/:id/source).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedHistory } from "../domain/statuses/history.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { MediaAttachmentSchema, presentMediaAttachment } from "./media-attachment.ts";
import type { StatusRecord } from "../model/statuses.ts";

export const StatusEditSchema = t.Object(
  {
    content: t.String({ description: "HTML" }),
    spoiler_text: t.String(),
    sensitive: t.Boolean(),
    created_at: t.String(),
    account: AccountSchema,
    poll: t.Optional(t.Object({ options: t.Array(t.Object({ title: t.String() })) }, { description: "Only for a version with a poll" })),
    media_attachments: t.Array(MediaAttachmentSchema),
    emojis: t.Array(t.Unknown()),
  },
  { description: "A version of a status" },
);

export const StatusSourceSchema = t.Object({ id: t.String(), text: t.String(), spoiler_text: t.String() }, { description: "What the author typed" });

export type StatusEdit = Static<typeof StatusEditSchema>;
export type StatusSource = Static<typeof StatusSourceSchema>;

export function presentStatusEdits(config: Config, history: LoadedHistory): StatusEdit[] {
  const account = presentAccount(config, history.author, history.viewerId);
  return history.versions.map(({ edit, media }) => ({
    content: edit.content,
    spoiler_text: edit.spoilerText,
    sensitive: edit.sensitive,
    created_at: new Date(edit.createdAt).toISOString(),
    account,
    ...(edit.pollOptions ? { poll: { options: edit.pollOptions.map((title) => ({ title })) } } : {}),
    media_attachments: media.map((record) => presentMediaAttachment(config, record)),
    emojis: [],
  }));
}

export function presentStatusSource(status: StatusRecord): StatusSource {
  return { id: publicId(status.id), text: status.text, spoiler_text: status.spoilerText };
}
