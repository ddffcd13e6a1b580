// src/domain/filters/input.ts without an app: what clients send for filters, checked with Mastodon's messages
// (each naming its field), and Warren's per-account limits.
import { expect, test } from "bun:test";
import { checkAccountLimits, FILTER_LIMITS, validAction, validContext, validExpiry, validKeyword, validTitle } from "../../../src/domain/filters/input.ts";
import type { FilterRecord } from "../../../src/model/filters.ts";

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (error) {
    return `${(error as { status?: number }).status} ${(error as Error).message}`;
  }
};

test("titles and keywords: trimmed, not blank, bounded in characters (not UTF-16 units)", () => {
  expect(validTitle("  Spoilers ")).toBe("Spoilers");
  expect(refusal(() => validTitle("   "))).toBe("422 Validation failed: Title can't be blank");
  expect(refusal(() => validTitle(undefined, "Phrase"))).toBe("422 Validation failed: Phrase can't be blank");
  expect(validTitle("😀".repeat(FILTER_LIMITS.maxTitleLength))).toHaveLength(2 * FILTER_LIMITS.maxTitleLength);
  expect(refusal(() => validTitle("x".repeat(FILTER_LIMITS.maxTitleLength + 1)))).toContain("Title is too long (maximum is 256 characters)");
  expect(refusal(() => validKeyword("y".repeat(FILTER_LIMITS.maxKeywordLength + 1), "Keywords keyword"))).toContain("Keywords keyword is too long");
});

test("contexts: blanks dropped, duplicates merged, in Mastodon's order; unknown or none refused", () => {
  expect(validContext(["thread", " home", "", "home"])).toEqual(["home", "thread"]);
  expect(validContext("public")).toEqual(["public"]);
  for (const bad of [undefined, [], [""], ["home", "nowhere"], ["__proto__"]]) {
    expect(refusal(() => validContext(bad))).toBe("422 Validation failed: Context None or invalid context supplied");
  }
});

test("actions: blank or absent is the fallback; unknown refused", () => {
  expect(validAction(undefined, "warn")).toBe("warn");
  expect(validAction("  ", "hide")).toBe("hide");
  expect(validAction(" blur ", "warn")).toBe("blur");
  expect(refusal(() => validAction("delete", "warn"))).toBe("422 Validation failed: Filter action is not included in the list");
});

test("expiry: seconds from now; blank is never; absent keeps the fallback; fractions floor", () => {
  const now = 1_000_000;
  expect(validExpiry("60", now, null)).toBe(now + 60_000);
  expect(validExpiry("60.9", now, null)).toBe(now + 60_000);
  expect(validExpiry("", now, 5)).toBeNull();
  expect(validExpiry(undefined, now, 5)).toBe(5);
});

test("expiry: not a number, not positive, or too far refused", () => {
  expect(refusal(() => validExpiry("soon", 0, null))).toBe("422 Validation failed: Expires in is not a number");
  expect(refusal(() => validExpiry("1e3", 0, null))).toContain("is not a number");
  expect(refusal(() => validExpiry("0", 0, null))).toContain("must be greater than 0");
  expect(refusal(() => validExpiry("-5", 0, null))).toContain("must be greater than 0");
  expect(refusal(() => validExpiry(String(FILTER_LIMITS.maxExpiresInSeconds + 1), 0, null))).toContain("must be less than or equal to");
});

test("per-account limits: filters (only when one is added), keywords, statuses", () => {
  const filter = (keywords: number, statuses = 0) => ({ keywords: Array(keywords).fill({}), statuses: Array(statuses).fill({}) }) as unknown as FilterRecord;
  const full = Array.from({ length: FILTER_LIMITS.maxFiltersPerAccount + 1 }, () => filter(0));
  expect(refusal(() => checkAccountLimits(full, true))).toContain("maximum number of filters");
  expect(refusal(() => checkAccountLimits(full, false))).toBeNull();
  expect(refusal(() => checkAccountLimits([filter(FILTER_LIMITS.maxKeywordsPerAccount), filter(1)], false))).toContain("maximum number of filter keywords (1000)");
  expect(refusal(() => checkAccountLimits([filter(0, FILTER_LIMITS.maxStatusesPerAccount + 1)], false))).toContain("maximum number of filtered statuses");
  expect(refusal(() => checkAccountLimits([filter(FILTER_LIMITS.maxKeywordsPerAccount, FILTER_LIMITS.maxStatusesPerAccount)], true))).toBeNull();
});
