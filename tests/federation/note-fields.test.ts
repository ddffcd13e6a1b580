// src/federation/note-fields.ts and note-checks.ts: a remote Note's addressing read as a visibility (as
// Mastodon reads it), its language, its hashtags' names and its date, and what counts as public.
import { expect, test } from "bun:test";
import { Note } from "@fedify/vocab";
import { isPublic, sameOrigin } from "../../src/federation/note-checks.ts";
import { createdAtOf, hashtagName, languageOf, visibilityOf } from "../../src/federation/note-fields.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import { MASTODON_CONTEXT, parse, PUBLIC } from "./fixtures/objects.ts";

const author = { followersUrl: "https://remote.example/users/a/followers" } as AccountRecord;
const followers = new URL(author.followersUrl);
const mentioned = new URL("https://here.example/users/b");
const pub = new URL(PUBLIC);

test("visibility: Public in to, Public in cc, the followers, or only the addressed", () => {
  expect(visibilityOf([pub], [followers], author)).toBe("public");
  expect(visibilityOf([followers], [pub], author)).toBe("unlisted");
  expect(visibilityOf([followers], [mentioned], author)).toBe("private");
  expect(visibilityOf([mentioned], [], author)).toBe("direct");
});

test("visibility: every spelling of Public is public (as:Public, Public resolved against the document)", async () => {
  for (const to of ["as:Public", "Public", PUBLIC]) {
    const note = await parse(Note, { "@context": MASTODON_CONTEXT, id: "https://remote.example/n/3", type: "Note", to, content: "x" });
    expect([to, visibilityOf(note.toIds, note.ccIds, author)]).toEqual([to, "public"]);
  }
  expect(isPublic(new URL("https://remote.example/Public"))).toBe(true);
  expect(isPublic(new URL("https://remote.example/Public?x=1"))).toBe(false);
  expect(isPublic(new URL("https://remote.example/users/Publicity"))).toBe(false);
});

test("visibility: another account's followers collection is not the author's (direct)", () => {
  expect(visibilityOf([new URL("https://remote.example/users/z/followers")], [], author)).toBe("direct");
  // an author with no followers collection known
  expect(visibilityOf([followers], [], { followersUrl: "" } as AccountRecord)).toBe("direct");
});

test("language: the first contentMap entry with a 2- or 3-letter code", async () => {
  const note = (contentMap: object) => parse(Note, { "@context": MASTODON_CONTEXT, id: "https://remote.example/n/1", type: "Note", content: "x", contentMap });
  expect(languageOf(await note({ de: "<p>Hallo</p>" }))).toBe("de");
  expect(languageOf(await note({ "pt-BR": "<p>olá</p>" }))).toBe("pt");
  expect(languageOf(await parse(Note, { "@context": MASTODON_CONTEXT, id: "https://remote.example/n/2", type: "Note", content: "x" }))).toBeNull();
});

test("hashtags: lower case without `#`; letters needed; other signs and long names refused", () => {
  expect(hashtagName("#WarrenDev")).toBe("warrendev");
  expect(hashtagName("café_2")).toBe("café_2");
  expect(hashtagName("#2024")).toBeNull();
  expect(hashtagName("#with space")).toBeNull();
  expect(hashtagName("#<b>")).toBeNull();
  expect(hashtagName(`#${"a".repeat(201)}`)).toBeNull();
  expect(hashtagName("#__proto__")).toBe("__proto__");
});

test("dates: never in the future, never before 1970", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(createdAtOf(now - 1000, now)).toBe(now - 1000);
  expect(createdAtOf(now + 86_400_000, now)).toBe(now);
  expect(createdAtOf(-5, now)).toBe(0);
});

test("same origin: scheme, host and port", () => {
  expect(sameOrigin("https://a.example/x", "https://a.example/y")).toBe(true);
  expect(sameOrigin("https://a.example/x", "http://a.example/x")).toBe(false);
  expect(sameOrigin("https://a.example/x", "https://a.example:8443/x")).toBe(false);
  expect(sameOrigin("https://a.example/x", "https://evil.a.example/x")).toBe(false);
});
