// PreviewCard entity (API.md §4.4): the link card of a status.
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import type { Config } from "../config.ts";
import { Nullable } from "./nullable.ts";
import type { PreviewCardRecord } from "../model/statuses.ts";

export const PreviewCardSchema = t.Object(
  {
    url: t.String(),
    title: t.String(),
    description: t.String(),
    language: Nullable(t.String()),
    type: t.Union([t.Literal("link"), t.Literal("photo"), t.Literal("video"), t.Literal("rich")]),
    author_name: t.String(),
    author_url: t.String(),
    provider_name: t.String(),
    provider_url: t.String(),
    html: t.String({ description: "Sanitised oEmbed HTML (video and rich cards)" }),
    width: Int(),
    height: Int(),
    image: Nullable(t.String()),
    image_description: t.String(),
    embed_url: t.String(),
    blurhash: Nullable(t.String()),
    published_at: Nullable(t.String()),
    authors: t.Array(t.Object({ name: t.String(), url: t.String(), account: t.Null() })),
    missing_attribution: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  },
  { description: "Mastodon PreviewCard" },
);
type PreviewCard = Static<typeof PreviewCardSchema>;

export function presentPreviewCard(_config: Config, card: PreviewCardRecord, signedIn: boolean): PreviewCard {
  const out: PreviewCard = {
    url: card.url,
    title: card.title,
    description: card.description,
    language: card.language,
    type: card.type,
    author_name: card.authorName,
    author_url: card.authorUrl,
    provider_name: card.providerName,
    provider_url: card.providerUrl,
    html: card.html,
    width: card.width,
    height: card.height,
    image: card.image,
    image_description: card.imageDescription,
    embed_url: card.embedUrl,
    blurhash: null,
    published_at: card.publishedAt === null ? null : new Date(card.publishedAt).toISOString(),
    authors: card.authorName || card.authorUrl ? [{ name: card.authorName, url: card.authorUrl, account: null }] : [],
  };
  if (signedIn) out.missing_attribution = false;
  return out;
}
