// Schema helpers shared by every route. After http/plugins/params.ts every scalar arrives as a string (or
// a real boolean from JSON), so these describe exactly what a Mastodon client may send.
import { t } from "elysia";

const TRUE_WORDS = ["true", "1", "t", "on", "yes"] as const;
const FALSE_WORDS = ["false", "0", "f", "off", "no", ""] as const;

/** One of the words in any letter case ("True" from Python clients, "FALSE"…), as Rails reads them. */
const anyCase = (words: readonly string[]) =>
  `^(${words.map((w) => [...w].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join("")).join("|")})$`;

/** A boolean parameter: JSON true/false or one of Rails' boolean words in any case. Read it with `toBool`. */
export const Flag = (options: { description?: string } = {}) =>
  t.Union([t.Boolean(), t.String({ pattern: anyCase([...TRUE_WORDS, ...FALSE_WORDS]) })], options);

export type FlagValue = boolean | string;

export function toBool(value: FlagValue | undefined, fallback = false): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  return (TRUE_WORDS as readonly string[]).includes(value.toLowerCase());
}

/** Mastodon's error entity. */
export const ErrorBody = t.Object(
  {
    error: t.String(),
    error_description: t.Optional(t.String()),
    details: t.Optional(t.Record(t.String(), t.Array(t.Object({ error: t.String(), description: t.String() })))),
  },
  { description: "Mastodon error entity" },
);

/** Error responses every authenticated route may give. */
export const authErrors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };

/** Paging parameters (max_id, since_id, min_id, limit) merged into a route's query schema. */
export const pagingQuery = {
  max_id: t.Optional(t.String({ description: "Return results older than this id" })),
  since_id: t.Optional(t.String({ description: "Return results newer than this id" })),
  min_id: t.Optional(t.String({ description: "Return results immediately newer than this id" })),
  limit: t.Optional(t.String({ description: "Maximum number of results; clamped to twice the default" })),
};

/** Defined with the entities (response schemas use it too); routes take it from here with the other helpers. */
export { Nullable } from "../entities/nullable.ts";

export const EmptyObject = t.Object({}, { additionalProperties: false, description: "Empty object" });
