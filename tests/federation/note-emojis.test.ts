// src/federation/note-emojis.ts: the custom emojis of a Note or actor as other servers tag them, kept as
// Mastodon keeps them (only those the texts use, each once, http(s) images, bounded), hostile ones dropped.
import { expect, test } from "bun:test";
import { Note } from "@fedify/vocab";
import { emojisUsed, emojiTags, MAX_EMOJIS } from "../../src/federation/note-emojis.ts";
import { readOptions } from "../../src/federation/note-attachments.ts";
import { MASTODON_CONTEXT, MISSKEY_CONTEXT, parse, PUBLIC } from "./fixtures/objects.ts";

const emoji = (name: unknown, url: unknown = "https://remote.example/emoji/blob.png", extra: object = {}) => ({
  type: "Emoji",
  id: `https://remote.example/emojis/${String(name)}`,
  name,
  icon: { type: "Image", mediaType: "image/png", url },
  ...extra,
});

async function used(context: unknown, tags: unknown[], content: string) {
  const note = await parse(Note, { "@context": context, id: "https://remote.example/notes/9", type: "Note", to: [PUBLIC], content, tag: tags });
  return emojisUsed(await emojiTags(note.getTags(readOptions), 100), [content]);
}

test("Mastodon: an Emoji tag the content uses", async () => {
  expect(await used(MASTODON_CONTEXT, [emoji(":blob:")], "<p>hi :blob:</p>")).toEqual([
    { shortcode: "blob", url: "https://remote.example/emoji/blob.png", staticUrl: "https://remote.example/emoji/blob.png" },
  ]);
});

test("Misskey: a name without colons is read the same", async () => {
  expect((await used(MISSKEY_CONTEXT, [emoji("ablobcat")], "ablobcat :ablobcat:")).map((e) => e.shortcode)).toEqual(["ablobcat"]);
});

test("emojis the texts do not use are left out; one used twice is kept once", async () => {
  const found = await used(MASTODON_CONTEXT, [emoji(":a_b:"), emoji(":unused:"), emoji(":a_b:", "https://remote.example/other.png")], ":a_b: :a_b:");
  expect(found.map((e) => [e.shortcode, e.url])).toEqual([["a_b", "https://remote.example/emoji/blob.png"]]);
});

test("hostile: shortcodes with other signs, too short or too long, and non-http images are dropped", async () => {
  const tags = [emoji(":<script>:"), emoji(":x:"), emoji(`:${"l".repeat(65)}:`), emoji(":jsimg:", "javascript:alert(1)"), emoji(":nourl:", null)];
  const content = `:<script>: :x: :${"l".repeat(65)}: :jsimg: :nourl:`;
  expect(await used(MASTODON_CONTEXT, tags, content)).toEqual([]);
});

test("hostile: at most MAX_EMOJIS are kept", async () => {
  const tags = Array.from({ length: 80 }, (_, i) => emoji(`:e${i}:`));
  const content = tags.map((_, i) => `:e${i}:`).join(" ");
  expect(await used(MASTODON_CONTEXT, tags, content)).toHaveLength(MAX_EMOJIS);
});

test("emojiTags reads at most `limit` tags, Emoji ones only", async () => {
  const note = await parse(Note, {
    "@context": MASTODON_CONTEXT,
    id: "https://remote.example/notes/10",
    type: "Note",
    tag: [{ type: "Hashtag", name: "#tag", href: "https://remote.example/tags/tag" }, emoji(":one:"), emoji(":two:"), emoji(":three:")],
  });
  expect((await emojiTags(note.getTags(readOptions), 3)).map((tag) => tag.name?.toString())).toEqual([":one:", ":two:"]);
});
