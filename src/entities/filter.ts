// Filter entities (API.md §4.9): Filter (v2, with its keywords and statuses), FilterKeyword, FilterStatus,
// and FilterResult, the entry of Status.filtered, whose nested Filter has neither keywords nor statuses.
import { t, type Static } from "elysia";
import type { FilterMatch } from "../domain/filters/match.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { FilterKeywordRecord, FilterRecord, FilterStatusRecord } from "../model/filters.ts";

const ContextSchema = t.Union([t.Literal("home"), t.Literal("notifications"), t.Literal("public"), t.Literal("thread"), t.Literal("account")]);
const ActionSchema = t.Union([t.Literal("warn"), t.Literal("hide"), t.Literal("blur")], {
  description: "warn: shown behind a warning; hide: left out; blur: media hidden behind a warning",
});

export const FilterKeywordSchema = t.Object(
  { id: t.String(), keyword: t.String(), whole_word: t.Boolean({ description: "Only whole words match" }) },
  { description: "Mastodon FilterKeyword" },
);

export const FilterStatusSchema = t.Object({ id: t.String(), status_id: t.String() }, { description: "Mastodon FilterStatus" });

const summaryProperties = {
  id: t.String(),
  title: t.String(),
  context: t.Array(ContextSchema, { description: "Where the filter applies" }),
  expires_at: Nullable(t.String({ description: "When it stops applying; null: never" })),
  filter_action: ActionSchema,
};

export const FilterSchema = t.Object(
  { ...summaryProperties, keywords: t.Array(FilterKeywordSchema), statuses: t.Array(FilterStatusSchema) },
  { description: "Mastodon Filter (v2)" },
);

export const FilterResultSchema = t.Object(
  {
    filter: t.Object(summaryProperties, { description: "The filter that matched (without keywords and statuses)" }),
    keyword_matches: Nullable(t.Array(t.String(), { description: "Its keywords found in the status" })),
    status_matches: Nullable(t.Array(t.String(), { description: "Its status ids that are this status (or the status it reblogs)" })),
  },
  { description: "Mastodon FilterResult" },
);

export type Filter = Static<typeof FilterSchema>;
export type FilterKeyword = Static<typeof FilterKeywordSchema>;
export type FilterStatus = Static<typeof FilterStatusSchema>;
export type FilterResult = Static<typeof FilterResultSchema>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function summary(filter: FilterRecord) {
  return { id: publicId(filter.id), title: filter.title, context: [...filter.context], expires_at: iso(filter.expiresAt), filter_action: filter.action };
}

export function presentFilterKeyword(keyword: FilterKeywordRecord): FilterKeyword {
  return { id: publicId(keyword.id), keyword: keyword.keyword, whole_word: keyword.wholeWord };
}

export function presentFilterStatus(entry: FilterStatusRecord): FilterStatus {
  return { id: publicId(entry.id), status_id: publicId(entry.statusId) };
}

export function presentFilter(filter: FilterRecord): Filter {
  return { ...summary(filter), keywords: filter.keywords.map(presentFilterKeyword), statuses: filter.statuses.map(presentFilterStatus) };
}

export function presentFilterResult(match: FilterMatch): FilterResult {
  return {
    filter: summary(match.filter),
    keyword_matches: match.keywordMatches ? [...match.keywordMatches] : null,
    status_matches: match.statusMatches ? match.statusMatches.map(publicId) : null,
  };
}
