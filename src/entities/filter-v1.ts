// The v1 Filter entity (Mastodon's REST::V1::FilterSerializer): one keyword of a v2 filter, with its filter's
// context, expiry and action (`irreversible` = hide).
import { t, type Static } from "elysia";
import type { V1Filter } from "../domain/filters/v1.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";

export const V1FilterSchema = t.Object(
  {
    id: t.String({ description: "The keyword's id" }),
    phrase: t.String(),
    context: t.Array(t.String(), { description: "home, notifications, public, thread, account" }),
    whole_word: t.Boolean(),
    expires_at: Nullable(t.String()),
    irreversible: t.Boolean({ description: "The filter's action is hide" }),
  },
  { description: "Mastodon Filter (v1)" },
);

export type V1FilterEntity = Static<typeof V1FilterSchema>;

export function presentV1Filter({ filter, keyword }: V1Filter): V1FilterEntity {
  return {
    id: publicId(keyword.id),
    phrase: keyword.keyword,
    context: [...filter.context],
    whole_word: keyword.wholeWord,
    expires_at: filter.expiresAt === null ? null : new Date(filter.expiresAt).toISOString(),
    irreversible: filter.action === "hide",
  };
}
