// Suggestion entity (API.md §4.12): `sources` (Mastodon 4.3) and the deprecated `source` derived from the
// first of them, as Mastodon's serializer does; `account` is the Account entity.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { Suggestion as SuggestionData, SuggestionSource } from "../domain/suggestions/suggest.ts";
import { AccountSchema, presentAccount } from "./account.ts";

const SourceSchema = t.Union(
  [
    t.Literal("featured"),
    t.Literal("most_followed"),
    t.Literal("most_interactions"),
    t.Literal("similar_to_recently_followed"),
    t.Literal("friends_of_friends"),
  ],
  { description: "featured: a staff pick; the others are computed (docs/suggestions.md)" },
);

const LegacySourceSchema = t.Union([t.Literal("staff"), t.Literal("global"), t.Literal("past_interactions")], {
  description: "Deprecated: the first of `sources` in the old words",
});

export const SuggestionSchema = t.Object(
  {
    source: LegacySourceSchema,
    sources: t.Array(SourceSchema, { minItems: 1 }),
    account: AccountSchema,
  },
  { description: "Mastodon Suggestion" },
);
export type Suggestion = Static<typeof SuggestionSchema>;

const LEGACY: Record<SuggestionSource, Suggestion["source"]> = {
  featured: "staff",
  most_followed: "global",
  most_interactions: "global",
  similar_to_recently_followed: "past_interactions",
  friends_of_friends: "past_interactions",
};

export function presentSuggestion(config: Config, suggestion: SuggestionData, viewerAccountId: string): Suggestion {
  return {
    source: LEGACY[suggestion.sources[0]!],
    sources: suggestion.sources,
    account: presentAccount(config, suggestion.account, viewerAccountId),
  };
}
