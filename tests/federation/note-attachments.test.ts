// src/federation/note-attachments.ts: a Note's attachments as Mastodon, GoToSocial, Misskey and Pleroma send
// them, read into the records' shape, and what hostile ones are reduced to.
import { expect, test } from "bun:test";
import { Note } from "@fedify/vocab";
import { attachmentsOf, httpUrl, rawJsonOf } from "../../src/federation/note-attachments.ts";
import { NOTE_LIMITS } from "../../src/federation/note-checks.ts";
import { GTS_CONTEXT, MASTODON_CONTEXT, MISSKEY_CONTEXT, parse, PLEROMA_CONTEXT, PUBLIC } from "./fixtures/objects.ts";

const note = (context: unknown, attachment: unknown, extra: object = {}) => ({
  "@context": context,
  id: "https://remote.example/notes/1",
  type: "Note",
  attributedTo: "https://remote.example/users/a",
  to: [PUBLIC],
  content: "<p>look</p>",
  attachment,
  ...extra,
});

async function read(json: object) {
  const parsed = await parse(Note, json);
  return attachmentsOf(parsed, rawJsonOf(parsed));
}

test("Mastodon: a Document with alt text, size, blurhash and focal point", async () => {
  const attachments = await read(note(MASTODON_CONTEXT, [
    { type: "Document", mediaType: "image/png", url: "https://remote.example/a.png", name: "a red square", blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focalPoint: [0.5, -0.25], width: 640, height: 480 },
  ]));
  expect(attachments).toEqual([
    { type: "image", url: "https://remote.example/a.png", contentType: "image/png", description: "a red square", width: 640, height: 480, blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focus: { x: 0.5, y: -0.25 } },
  ]);
});

test("GoToSocial: the alt text comes as `summary`", async () => {
  const [attachment] = await read(note(GTS_CONTEXT, [{ type: "Image", mediaType: "image/jpeg", url: "https://remote.example/b.jpg", summary: "described in summary" }]));
  expect(attachment).toMatchObject({ type: "image", description: "described in summary", contentType: "image/jpeg" });
});

test("Pleroma: `url` as an array of Links, the media type on the Link", async () => {
  const [attachment] = await read(note(PLEROMA_CONTEXT, [
    { type: "Document", name: "clip", url: [{ type: "Link", href: "https://remote.example/c.mp4", mediaType: "video/mp4" }] },
  ]));
  expect(attachment).toMatchObject({ type: "video", url: "https://remote.example/c.mp4", contentType: "video/mp4", description: "clip" });
});

test("Misskey: a Document without a description; an Audio by its type alone", async () => {
  const attachments = await read(note(MISSKEY_CONTEXT, [
    { type: "Document", mediaType: "image/webp", url: "https://remote.example/d.webp", name: null, sensitive: false },
    { type: "Audio", url: "https://remote.example/e.ogg" },
  ]));
  expect(attachments.map(({ type, description, contentType }) => ({ type, description, contentType }))).toEqual([
    { type: "image", description: null, contentType: "image/webp" },
    { type: "audio", description: null, contentType: null },
  ]);
});

test("one attachment alone (not in an array) is read too", async () => {
  expect(await read(note(MASTODON_CONTEXT, { type: "Document", mediaType: "image/gif", url: "https://remote.example/f.gif" }))).toHaveLength(1);
});

test("hostile: non-http(s) URLs, unknown kinds and a missing URL are left out", async () => {
  const attachments = await read(note(MASTODON_CONTEXT, [
    { type: "Document", mediaType: "image/png", url: "javascript:alert(1)" },
    { type: "Document", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
    { type: "Document", mediaType: "application/pdf", url: "https://remote.example/g.pdf" },
    { type: "Document", mediaType: "image/png" },
    { type: "Document", mediaType: "image/png", url: `https://remote.example/${"x".repeat(NOTE_LIMITS.uri)}.png` },
    { type: "Document", mediaType: "image/png", url: "https://remote.example/kept.png" },
  ]));
  expect(attachments.map((a) => a.url)).toEqual(["https://remote.example/kept.png"]);
});

test("hostile: descriptions are plain text, bounded; sizes must be positive integers in range", async () => {
  const [attachment] = await read(note(MASTODON_CONTEXT, [
    { type: "Document", mediaType: "image/png", url: "https://remote.example/h.png", name: `<script>x</script><b>bold</b>${"y".repeat(5_000)}`, width: -5, height: 10_000_000 },
  ]));
  expect(attachment!.description!.length).toBe(NOTE_LIMITS.description);
  expect(attachment!.description).not.toContain("<");
  expect(attachment).toMatchObject({ width: null, height: null });
});

test("hostile: a bad blurhash or focal point is dropped, the attachment kept", async () => {
  const attachments = await read(note(MASTODON_CONTEXT, [
    { type: "Document", mediaType: "image/png", url: "https://remote.example/i.png", blurhash: "<svg onload=x>", focalPoint: [5, 0] },
    { type: "Document", mediaType: "image/png", url: "https://remote.example/j.png", blurhash: 12345, focalPoint: "0.1,0.2" },
  ]));
  expect(attachments.map(({ blurhash, focus }) => ({ blurhash, focus }))).toEqual([
    { blurhash: null, focus: null },
    { blurhash: null, focus: null },
  ]);
});

test("hostile: at most NOTE_LIMITS.attachments are kept", async () => {
  const many = Array.from({ length: 40 }, (_, i) => ({ type: "Document", mediaType: "image/png", url: `https://remote.example/${i}.png` }));
  expect(await read(note(MASTODON_CONTEXT, many))).toHaveLength(NOTE_LIMITS.attachments);
});

test("hostile: `__proto__` and `constructor` keys in the raw JSON change nothing", async () => {
  const raw = JSON.parse(
    '{"type":"Document","mediaType":"image/png","url":"https://remote.example/k.png","__proto__":{"blurhash":"LEHV6nWB2yk8pyo0adR*.7kCMdnj","polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  );
  const [attachment] = await read(note(MASTODON_CONTEXT, [raw]));
  expect(attachment).toMatchObject({ url: "https://remote.example/k.png", blurhash: null });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("httpUrl: http(s) only, of bounded length", () => {
  expect(httpUrl(new URL("https://a.example/x"))).toBe("https://a.example/x");
  expect(httpUrl(new URL("ftp://a.example/x"))).toBeNull();
  expect(httpUrl(null)).toBeNull();
  expect(httpUrl(new URL(`https://a.example/${"z".repeat(NOTE_LIMITS.uri)}`))).toBeNull();
});

test("rawJsonOf: the document a Note was parsed from", async () => {
  const parsed = await parse(Note, note(MASTODON_CONTEXT, []));
  expect(rawJsonOf(parsed)?.id).toBe("https://remote.example/notes/1");
});
