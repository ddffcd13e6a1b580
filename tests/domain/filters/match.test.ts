// src/domain/filters/match.ts without an app: a keyword's pattern, as Mastodon's CustomFilterKeyword#to_regex.
import { describe, expect, test } from "bun:test";
import { keywordPattern } from "../../../src/domain/filters/match.ts";

const matches = (keyword: string, wholeWord: boolean, text: string) => new RegExp(keywordPattern(keyword, wholeWord), "iu").test(text.normalize("NFC"));

describe("keywordPattern", () => {
  test("case-insensitive; a keyword that is not whole-word matches inside words", () => {
    expect(matches("Spoiler", false, "no SPOILERS here")).toBe(true);
    expect(matches("cat", false, "concatenate")).toBe(true);
  });

  test("whole-word: only where no word character touches it, Unicode letters counted as word characters", () => {
    expect(matches("cat", true, "a cat, sleeping")).toBe(true);
    expect(matches("cat", true, "concatenate")).toBe(false);
    expect(matches("caf", true, "un café")).toBe(false);
    expect(matches("café", true, "un café noir")).toBe(true);
  });

  test("whole-word boundaries only on the sides that start or end with a word character", () => {
    expect(matches("#tag", true, "see a#tag")).toBe(true);
    expect(matches("#tag", true, "see #tags")).toBe(false);
  });

  test("accents are not folded, but composed and decomposed forms are one", () => {
    expect(matches("cafe", true, "un café")).toBe(false);
    expect(matches("cafe\u0301", true, "un caf\u00e9")).toBe(true);
  });

  test("regular-expression characters in a keyword are literal", () => {
    expect(matches("a.b", false, "axb")).toBe(false);
    expect(matches("a.b", false, "a.b")).toBe(true);
    expect(matches("(x)", true, "say (x) now")).toBe(true);
  });
});
