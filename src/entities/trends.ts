// Trend entities: a trending link is a PreviewCard with its week of `history` (Mastodon's Trends::Link); the
// admin review lists add `requires_review` (and `trendable` on tags) to Tag, Status and the link (with an id).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedLink } from "../domain/trends/read.ts";
import type { Publisher } from "../domain/trends/review.ts";
import { Nullable } from "./nullable.ts";
import { presentPreviewCard, PreviewCardSchema } from "./preview-card.ts";
import { TagSchema } from "./tag.ts";
import { StatusSchema } from "./status.ts";

export const TrendLinkSchema = t.Composite(
  [
    PreviewCardSchema,
    t.Object({
      history: t.Array(t.Object({ day: t.String(), accounts: t.String(), uses: t.String() }), { description: "The last 7 days, today first" }),
    }),
  ],
  { description: "Mastodon Trends::Link" },
);
export type TrendLink = Static<typeof TrendLinkSchema>;

export function presentTrendLink(config: Config, loaded: LoadedLink, signedIn: boolean): TrendLink {
  return {
    ...presentPreviewCard(config, loaded.card, signedIn),
    history: loaded.link.history.map((d) => ({ day: String(d.day / 1000), accounts: String(d.accounts), uses: String(d.uses) })),
  };
}

const review = { requires_review: t.Boolean({ description: "Not reviewed by staff yet" }) };

export const AdminTrendTagSchema = t.Composite([TagSchema, t.Object({ ...review, trendable: t.Boolean({ description: "Shown in public trends now" }) })], {
  description: "Mastodon Admin::Tag (as trends list it)",
});
export const AdminTrendStatusSchema = t.Composite([StatusSchema, t.Object(review)], { description: "Mastodon Status with requires_review" });
export const AdminTrendLinkSchema = t.Composite([TrendLinkSchema, t.Object({ id: t.String(), ...review })], {
  description: "Mastodon Trends::Link with its id and requires_review",
});

/** Admin::PreviewCardProvider (a trending link's publisher), as GET /api/v1/admin/trends/links/publishers lists it. */
export const AdminTrendPublisherSchema = t.Object(
  {
    id: t.String({ description: "The domain (Warren addresses publishers by it)" }),
    domain: t.String(),
    trendable: t.Boolean(),
    reviewed_at: Nullable(t.String()),
    requested_review_at: Nullable(t.String()),
    requires_review: t.Boolean(),
  },
  { description: "Mastodon Admin::PreviewCardProvider" },
);

export function presentTrendPublisher(publisher: Publisher): Static<typeof AdminTrendPublisherSchema> {
  return {
    id: publisher.domain,
    domain: publisher.domain,
    trendable: publisher.review?.review === "approved",
    reviewed_at: publisher.review ? new Date(publisher.review.reviewedAt).toISOString() : null,
    // Warren does not ask the staff to review (no mail): nothing records a request.
    requested_review_at: null,
    requires_review: publisher.requiresReview,
  };
}
