// FeaturedTag entity (GET /api/v1/featured_tags, GET /api/v1/accounts/:id/featured_tags): a hashtag on a profile,
// with the owner's count of statuses using it (a string, as Mastodon sends it) and the day of the newest.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedFeaturedTag } from "../domain/tags/featured.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";

export const FeaturedTagSchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    url: t.String({ description: "The owner's statuses with the tag" }),
    statuses_count: t.String({ description: "The owner's public and unlisted statuses with the tag, as a decimal string" }),
    last_status_at: Nullable(t.String({ description: "Day (YYYY-MM-DD) of the newest of them" })),
  },
  { description: "Mastodon FeaturedTag" },
);
export type FeaturedTag = Static<typeof FeaturedTagSchema>;

export function presentFeaturedTag(config: Config, { record, account }: LoadedFeaturedTag): FeaturedTag {
  const owner = account.domain === null ? account.username : `${account.username}@${account.domain}`;
  return {
    id: publicId(record.id),
    name: record.tag,
    url: `${config.url}/@${owner}/tagged/${encodeURIComponent(record.tag)}`,
    statuses_count: String(record.statusesCount),
    last_status_at: record.lastStatusAt === null ? null : new Date(record.lastStatusAt).toISOString().slice(0, 10),
  };
}
