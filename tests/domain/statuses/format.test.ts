// src/domain/statuses/format.ts without an app: how status text is split into URLs, mentions and hashtags
// (Mastodon's rules), the hashtags as written, and the 500-character count (a URL weighs 23, `@user@domain`
// counts as `@user`).
import { expect, test } from "bun:test";
import { countableLength, graphemeLength, hashtagsAsWritten, parseStatusText, type Segment } from "../../../src/domain/statuses/format.ts";
import { STATUS_LIMITS } from "../../../src/domain/limits.ts";

const kinds = (text: string) => parseStatusText(text).filter((s) => s.kind !== "text").map((s) => `${s.kind}:${s.text}`);
const mentions = (text: string) =>
  parseStatusText(text).flatMap((s: Segment) => (s.kind === "mention" ? [`${s.username}@${s.domain ?? ""}`] : []));
const tags = (text: string) => parseStatusText(text).flatMap((s) => (s.kind === "tag" ? [s.name] : []));

test("mentions: local, remote, with a port; not inside e-mail addresses or URLs", () => {
  expect(mentions("hi @alice and @bob@remote.example, @carol@host.example:8443!")).toEqual(["alice@", "bob@remote.example", "carol@host.example:8443"]);
  expect(mentions("mail me at me@example.com")).toEqual([]);
  expect(mentions("see https://example.com/@alice")).toEqual([]);
  expect(mentions("@under_score.dot-dash")).toEqual(["under_score.dot-dash@"]);
});

test("hashtags: letters needed, unicode and middle dots allowed, not after letters, `&` or `)`", () => {
  expect(tags("#Warren #café #日本語 #l·l #2024 #_x")).toEqual(["Warren", "café", "日本語", "l·l", "_x"]);
  expect(tags("a#b &#39; (x)#y")).toEqual([]);
  expect(tags(`#${"a".repeat(201)}`)).toEqual([]);
  expect(tags(`#${"a".repeat(200)}`)).toHaveLength(1);
});

test("URLs: http(s) only, trailing punctuation and unbalanced brackets trimmed", () => {
  expect(kinds("go to https://example.com/a. Or (https://example.com/b) or https://en.wikipedia.org/wiki/X_(y)!")).toEqual([
    "url:https://example.com/a",
    "url:https://example.com/b",
    "url:https://en.wikipedia.org/wiki/X_(y)",
  ]);
  expect(kinds("ftp://example.com javascript:alert(1) http://")).toEqual([]);
  // A hashtag or mention inside a URL is part of the URL
  expect(kinds("https://example.com/#tag/@user")).toEqual(["url:https://example.com/#tag/@user"]);
});

test("the segments put back together are the text", () => {
  for (const text of ["plain", "a @b #c https://d.example/e f", "", "#x#y @a@b@c", "😀 #😀 @😀"]) {
    expect(parseStatusText(text).map((s) => s.text).join("")).toBe(text);
  }
});

test("hashtags as written: the first spelling of each name, keyed in lower case", () => {
  expect([...hashtagsAsWritten(parseStatusText("#WarrenDev #warrendev #Other"))]).toEqual([
    ["warrendev", "WarrenDev"],
    ["other", "Other"],
  ]);
});

test("the count: graphemes, URLs at 23, remote mentions as @user, the content warning included", () => {
  expect(graphemeLength("👩‍👩‍👧‍👦é")).toBe(2);
  const url = `https://example.com/${"x".repeat(100)}`;
  expect(countableLength("", parseStatusText(url))).toBe(STATUS_LIMITS.charactersReservedPerUrl);
  expect(countableLength("", parseStatusText("@bob@a-very-long-domain.example hi"))).toBe("@bob hi".length);
  expect(countableLength("cw!", parseStatusText("body"))).toBe(7);
});
