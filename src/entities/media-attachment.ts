// MediaAttachment entity (API.md §4.3): an upload, on its own (the media endpoints) or on a status.
// `url` is null while a video or audio file is being processed; `preview_url` is the uploader's thumbnail
// when there is one. `meta` is Mastodon's: original/small sizes, video and audio facts, colors, focus.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { MediaRecord } from "../model/media.ts";

const Dimensions = t.Object(
  {
    width: t.Optional(t.Integer()),
    height: t.Optional(t.Integer()),
    size: t.Optional(t.String({ description: "WIDTHxHEIGHT" })),
    aspect: t.Optional(t.Number()),
    frame_rate: t.Optional(t.String({ description: "Video: frames per second as a fraction" })),
    duration: t.Optional(t.Number({ description: "Video and audio: seconds" })),
    bitrate: t.Optional(t.Integer({ description: "Video and audio: bits per second" })),
  },
  { additionalProperties: true },
);

const MetaSchema = t.Object(
  {
    original: t.Optional(Dimensions),
    small: t.Optional(Dimensions),
    focus: t.Optional(t.Object({ x: t.Number(), y: t.Number() }, { description: "Focal point, each within -1..1" })),
    colors: t.Optional(t.Object({ background: t.String(), foreground: t.String(), accent: t.String() })),
    length: t.Optional(t.String({ description: "Video and audio: H:MM:SS.ss" })),
    duration: t.Optional(t.Number()),
    fps: t.Optional(t.Number()),
    size: t.Optional(t.String()),
    width: t.Optional(t.Integer()),
    height: t.Optional(t.Integer()),
    aspect: t.Optional(t.Number()),
    audio_encode: t.Optional(t.String()),
    audio_bitrate: t.Optional(t.String()),
    audio_channels: t.Optional(t.String()),
  },
  { additionalProperties: true },
);

export const MediaAttachmentSchema = t.Object(
  {
    id: t.String(),
    type: t.Union([t.Literal("image"), t.Literal("gifv"), t.Literal("video"), t.Literal("audio"), t.Literal("unknown")]),
    url: Nullable(t.String({ description: "Null while a video or audio file is processed" })),
    preview_url: Nullable(t.String()),
    remote_url: Nullable(t.String({ description: "The file on its origin server (remote media)" })),
    preview_remote_url: Nullable(t.String()),
    text_url: Nullable(t.String({ description: "Deprecated short link: null" })),
    meta: MetaSchema,
    description: Nullable(t.String({ description: "Alt text for people who cannot see the media" })),
    blurhash: Nullable(t.String()),
  },
  { description: "Mastodon MediaAttachment" },
);
export type MediaAttachment = Static<typeof MediaAttachmentSchema>;

const absolute = mediaUrl;

export function presentMediaAttachment(config: Config, media: MediaRecord): MediaAttachment {
  const meta: Record<string, unknown> = { ...media.meta };
  if (media.focus) meta.focus = media.focus;
  return {
    id: publicId(media.id),
    // From a domain whose block rejects media: a link to the remote file, as Mastodon shows it.
    type: media.mediaRejected ? "unknown" : media.type,
    // A remote file is served from here once kept (domain/media/remote-cache.ts); until then from its server.
    url: absolute(config, media.fileUrl) ?? media.remoteUrl ?? null,
    preview_url: media.mediaRejected ? null : (absolute(config, media.thumbnailUrl ?? media.previewUrl) ?? (media.type === "image" ? (media.remoteUrl ?? null) : null)),
    remote_url: media.remoteUrl ?? null,
    preview_remote_url: null,
    text_url: null,
    meta,
    description: media.description,
    blurhash: media.blurhash,
  };
}
