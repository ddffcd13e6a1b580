// src/federation/notes.ts, mastodon-terms.ts and emojis.ts, outward: a record's addressing by visibility
// (Mastodon's table), a poll as a Question's fields, attachments with Mastodon's extras and local emojis as
// Emoji tags; and the JSON they become read back by the inbound conversions (note-attachments.ts,
// note-poll.ts): what we send is what we would accept.
import { expect, test } from "bun:test";
import { Emoji, Image, PUBLIC_COLLECTION } from "@fedify/vocab";
import { loadConfig } from "../../src/config.ts";
import { emojiObject, emojiUri } from "../../src/federation/emojis.ts";
import { CompactedNote, CompactedQuestion, mastodonDocument } from "../../src/federation/mastodon-terms.ts";
import { attachmentsOf, rawJsonOf } from "../../src/federation/note-attachments.ts";
import { pollOf } from "../../src/federation/note-poll.ts";
import { addressing, pollFields } from "../../src/federation/notes.ts";
import type { PollRecord } from "../../src/model/statuses.ts";
import { Note, Question } from "@fedify/vocab";
import { offline, parse } from "./fixtures/objects.ts";

const followers = new URL("https://here.example/users/ada/followers");
const bob = new URL("https://remote.example/users/bob");
const hrefs = (urls: URL[]) => urls.map((url) => url.href);

test("addressing follows Mastodon's table for every visibility", () => {
  const table = Object.fromEntries(
    (["public", "unlisted", "private", "direct"] as const).map((visibility) => {
      const { to, cc } = addressing(visibility, followers, [bob]);
      return [visibility, { to: hrefs(to), cc: hrefs(cc) }];
    }),
  );
  expect(table).toEqual({
    public: { to: [PUBLIC_COLLECTION.href], cc: [followers.href, bob.href] },
    unlisted: { to: [followers.href], cc: [PUBLIC_COLLECTION.href, bob.href] },
    private: { to: [followers.href], cc: [bob.href] },
    direct: { to: [bob.href], cc: [] },
  });
});

test("a direct status mentioning nobody is addressed to nobody", () => {
  expect(addressing("direct", followers, [])).toEqual({ to: [], cc: [] });
});

const poll = (fields: Partial<PollRecord>): PollRecord => ({
  v: 1, statusId: "1", options: ["tea", "coffee"], optionVotes: [3, 1], votesCount: 4, votersCount: 4, multiple: false,
  hideTotals: false, expiresAt: null, notifiedAt: null, ...fields,
} as PollRecord);

async function roundTrip(record: PollRecord, now: number) {
  const question = new CompactedQuestion({ id: new URL("https://here.example/statuses/1"), ...pollFields(record, now) });
  const json = await question.toJsonLd({ contextLoader: offline });
  return { json: json as Record<string, any>, read: await pollOf(await parse(Question, json as object)) };
}

test("a single-choice poll goes out as oneOf with its counts, and reads back the same", async () => {
  const end = Date.parse("2030-01-01T00:00:00Z");
  const { json, read } = await roundTrip(poll({ expiresAt: end }), Date.parse("2029-01-01T00:00:00Z"));
  expect(json.oneOf.map((o: any) => [o.name, o.replies.totalItems])).toEqual([["tea", 3], ["coffee", 1]]);
  expect(json.anyOf).toBeUndefined();
  expect(json.closed).toBeUndefined();
  expect(read).toEqual({ options: ["tea", "coffee"], optionVotes: [3, 1], multiple: false, votersCount: 4, expiresAt: end });
});

test("a multiple-choice poll goes out as anyOf", async () => {
  const { json, read } = await roundTrip(poll({ multiple: true, votersCount: 2 }), Date.now());
  expect(json.anyOf).toHaveLength(2);
  expect(read).toMatchObject({ multiple: true, votersCount: 2 });
});

test("hidden totals go out as 0 until the end, then as counted; an ended poll is closed", async () => {
  const end = Date.parse("2030-01-01T00:00:00Z");
  const before = await roundTrip(poll({ hideTotals: true, expiresAt: end }), end - 1);
  expect(before.read?.optionVotes).toEqual([0, 0]);
  const after = await roundTrip(poll({ hideTotals: true, expiresAt: end }), end + 1);
  expect(after.read?.optionVotes).toEqual([3, 1]);
  expect(Date.parse(after.json.closed)).toBe(end);
});

test("an attachment goes out with blurhash and focalPoint as plain keys, and reads back the same", async () => {
  const document = mastodonDocument(
    { url: new URL("https://here.example/media/a.png"), mediaType: "image/png", name: "a square", width: 64, height: 48 },
    { blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focalPoint: [0.25, -0.5] },
  );
  const note = new CompactedNote({ id: new URL("https://here.example/statuses/2"), attachments: [document] });
  const json = (await note.toJsonLd({ contextLoader: offline })) as Record<string, any>;
  const attachment = Array.isArray(json.attachment) ? json.attachment[0] : json.attachment;
  expect(attachment).toMatchObject({ type: "Document", blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focalPoint: [0.25, -0.5] });
  const parsed = await parse(Note, json);
  expect(await attachmentsOf(parsed, rawJsonOf(parsed))).toEqual([
    { type: "image", url: "https://here.example/media/a.png", contentType: "image/png", description: "a square", width: 64, height: 48, blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focus: { x: 0.25, y: -0.5 } },
  ]);
});

test("an attachment without extras carries no blurhash or focalPoint keys", async () => {
  const document = mastodonDocument({ url: new URL("https://here.example/media/b.png"), mediaType: "image/png" }, { blurhash: null, focalPoint: null });
  const json = (await new CompactedNote({ id: new URL("https://here.example/statuses/3"), attachments: [document] }).toJsonLd({ contextLoader: offline })) as Record<string, any>;
  const attachment = Array.isArray(json.attachment) ? json.attachment[0] : json.attachment;
  expect(Object.keys(attachment)).not.toContain("blurhash");
  expect(Object.keys(attachment)).not.toContain("focalPoint");
});

test("a local emoji goes out as Mastodon's Emoji: its id, :name:, an icon with its media type", () => {
  const config = loadConfig({ WARREN_URL: "https://here.example" });
  const emoji = emojiObject(config, { v: 1, shortcode: "blob_cat", file: "/emojis/blob_cat.gif", staticFile: "/emojis/blob_cat.png", category: null, visibleInPicker: true, createdAt: 0 });
  expect(emoji).toBeInstanceOf(Emoji);
  expect(emoji.id?.href).toBe(emojiUri(config, "blob_cat").href);
  expect(emoji.name?.toString()).toBe(":blob_cat:");
  expect(emoji.updated?.epochMilliseconds).toBe(0);
  return emoji.getIcon().then((icon) => {
    expect(icon).toBeInstanceOf(Image);
    expect(icon?.mediaType).toBe("image/gif");
    expect((icon?.url as URL).href).toBe(`${config.url}/emojis/blob_cat.gif`);
  });
});
