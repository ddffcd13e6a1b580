// Checking what clients send for filters, with Mastodon's validation messages, each naming its field. Limits
// Mastodon does not have (filters, keywords and statuses per account) are Warren's, so that a viewer's
// compiled filters (kept per thread, filters/match.ts) and the work of matching a status stay bounded.
import { Unprocessable } from "../../lib/errors.ts";
import type { FilterAction, FilterContext, FilterRecord } from "../../model/filters.ts";

export const FILTER_LIMITS = {
  /** Mastodon's CustomFilter::TITLE_LENGTH_LIMIT and CustomFilterKeyword::KEYWORD_LENGTH_LIMIT */
  maxTitleLength: 256,
  maxKeywordLength: 512,
  /** Warren's, per account, over all of its filters */
  maxFiltersPerAccount: 100,
  maxKeywordsPerAccount: 1000,
  maxStatusesPerAccount: 1000,
  /** longest `expires_in` accepted, in seconds (about 100 years, as mutes) */
  maxExpiresInSeconds: 3_155_760_000,
} as const;

export const FILTER_CONTEXTS: readonly FilterContext[] = ["home", "notifications", "public", "thread", "account"];
export const FILTER_ACTIONS: readonly FilterAction[] = ["warn", "hide", "blur"];

const invalid = (message: string) => new Unprocessable(`Validation failed: ${message}`);
const length = (text: string) => [...text].length;

/** A title (`field`: how the message names it, "Title" or v1's "Phrase"). */
export function validTitle(raw: string | undefined, field = "Title"): string {
  const title = (raw ?? "").trim();
  if (title === "") throw invalid(`${field} can't be blank`);
  if (length(title) > FILTER_LIMITS.maxTitleLength) throw invalid(`${field} is too long (maximum is ${FILTER_LIMITS.maxTitleLength} characters)`);
  return title;
}

/** `context[]`: blanks dropped, duplicates merged; at least one, each a known context. */
export function validContext(raw: string | string[] | undefined): FilterContext[] {
  const given = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).map((c) => c.trim()).filter(Boolean);
  if (given.length === 0 || !given.every((c) => (FILTER_CONTEXTS as readonly string[]).includes(c))) {
    throw invalid("Context None or invalid context supplied");
  }
  return FILTER_CONTEXTS.filter((c) => given.includes(c));
}

/** `filter_action`; blank or absent gives `fallback`. */
export function validAction(raw: string | undefined, fallback: FilterAction): FilterAction {
  if (raw === undefined || raw.trim() === "") return fallback;
  const action = raw.trim();
  if (!(FILTER_ACTIONS as readonly string[]).includes(action)) throw invalid("Filter action is not included in the list");
  return action as FilterAction;
}

/**
 * `expires_in` in seconds → the moment it runs out (ms); blank → never (null). Absent → `fallback`
 * (creation: never; an update: unchanged).
 */
export function validExpiry(raw: string | undefined, now: number, fallback: number | null): number | null {
  if (raw === undefined) return fallback;
  const text = raw.trim();
  if (text === "") return null;
  if (!/^[+-]?\d+(\.\d+)?$/.test(text)) throw invalid("Expires in is not a number");
  const seconds = Math.floor(Number(text));
  if (seconds <= 0) throw invalid("Expires in must be greater than 0");
  if (seconds > FILTER_LIMITS.maxExpiresInSeconds) throw invalid(`Expires in must be less than or equal to ${FILTER_LIMITS.maxExpiresInSeconds}`);
  return now + seconds * 1000;
}

/** A keyword (`field`: "Keyword", or "Keywords keyword" inside keywords_attributes, or v1's "Phrase"). */
export function validKeyword(raw: string | undefined, field = "Keyword"): string {
  const keyword = (raw ?? "").trim();
  if (keyword === "") throw invalid(`${field} can't be blank`);
  if (length(keyword) > FILTER_LIMITS.maxKeywordLength) throw invalid(`${field} is too long (maximum is ${FILTER_LIMITS.maxKeywordLength} characters)`);
  return keyword;
}

/** An account's filters as they would be (`filters`) against the limits; `added`: one of them is new. */
export function checkAccountLimits(filters: readonly FilterRecord[], added: boolean): void {
  if (added && filters.length > FILTER_LIMITS.maxFiltersPerAccount) throw invalid("You have reached the maximum number of filters");
  let keywords = 0;
  let statuses = 0;
  for (const f of filters) {
    keywords += f.keywords.length;
    statuses += f.statuses.length;
  }
  if (keywords > FILTER_LIMITS.maxKeywordsPerAccount) {
    throw invalid(`You have reached the maximum number of filter keywords (${FILTER_LIMITS.maxKeywordsPerAccount})`);
  }
  if (statuses > FILTER_LIMITS.maxStatusesPerAccount) {
    throw invalid(`You have reached the maximum number of filtered statuses (${FILTER_LIMITS.maxStatusesPerAccount})`);
  }
}
