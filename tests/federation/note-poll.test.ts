// src/federation/note-poll.ts: a Question's poll as Mastodon, Misskey, GoToSocial and Pleroma send it, into a
// remote poll record; and what hostile ones are reduced to, or refused as.
import { expect, test } from "bun:test";
import { Note, Question } from "@fedify/vocab";
import { pollOf, POLL_IN_LIMITS } from "../../src/federation/note-poll.ts";
import { MASTODON_CONTEXT, MISSKEY_CONTEXT, parse, PLEROMA_CONTEXT, PUBLIC } from "./fixtures/objects.ts";

const option = (name: unknown, votes: unknown = 0) => ({ type: "Note", name, replies: { type: "Collection", totalItems: votes } });
const question = (context: unknown, fields: object) => ({
  "@context": context,
  id: "https://remote.example/questions/1",
  type: "Question",
  attributedTo: "https://remote.example/users/a",
  to: [PUBLIC],
  content: "<p>which?</p>",
  ...fields,
});
const read = async (json: object) => pollOf(await parse(Question, json));

test("Mastodon: a single-choice poll with counts, voters and an end", async () => {
  expect(await read(question(MASTODON_CONTEXT, { oneOf: [option("tea", 3), option("coffee", 1)], votersCount: 4, endTime: "2030-01-01T00:00:00Z" }))).toEqual({
    options: ["tea", "coffee"],
    optionVotes: [3, 1],
    multiple: false,
    votersCount: 4,
    expiresAt: Date.parse("2030-01-01T00:00:00Z"),
  });
});

test("Mastodon: a multiple-choice poll (anyOf)", async () => {
  const poll = await read(question(MASTODON_CONTEXT, { anyOf: [option("a", 2), option("b", 2), option("c")], votersCount: 3 }));
  expect(poll).toMatchObject({ options: ["a", "b", "c"], optionVotes: [2, 2, 0], multiple: true, votersCount: 3, expiresAt: null });
});

test("Misskey: no votersCount on a single-choice poll: each vote is a voter", async () => {
  const poll = await read(question(MISSKEY_CONTEXT, { oneOf: [option("yes", 5), option("no", 2)], endTime: "2030-06-01T12:00:00Z" }));
  expect(poll).toMatchObject({ votersCount: 7, multiple: false });
});

test("Misskey: no votersCount on a multiple-choice poll: unknown (0)", async () => {
  expect(await read(question(MISSKEY_CONTEXT, { anyOf: [option("x", 5), option("y", 2)] }))).toMatchObject({ votersCount: 0, multiple: true });
});

test("Pleroma: a closed poll ends when it closed", async () => {
  const poll = await read(question(PLEROMA_CONTEXT, { oneOf: [option("left"), option("right")], closed: "2024-02-03T04:05:06Z" }));
  expect(poll?.expiresAt).toBe(Date.parse("2024-02-03T04:05:06Z"));
});

test("a Note (not a Question) has no poll", async () => {
  expect(await pollOf(await parse(Note, { "@context": MASTODON_CONTEXT, id: "https://remote.example/n", type: "Note", content: "x" }))).toBeNull();
});

test("refused: fewer than two options, or the same option twice", async () => {
  expect(await read(question(MASTODON_CONTEXT, { oneOf: [option("only")] }))).toBeNull();
  expect(await read(question(MASTODON_CONTEXT, { oneOf: [option("same"), option("same")] }))).toBeNull();
  expect(await read(question(MASTODON_CONTEXT, { oneOf: [] }))).toBeNull();
});

test("hostile: options without a name are skipped; names are plain text, trimmed and bounded", async () => {
  const poll = await read(question(MASTODON_CONTEXT, { oneOf: [option(""), option("  <b>bold</b> "), option("z".repeat(2_000))] }));
  expect(poll?.options).toEqual(["bold", "z".repeat(POLL_IN_LIMITS.maxOptionLength)]);
});

test("hostile: negative, fractional, huge or non-numeric counts count as 0", async () => {
  const poll = await read(question(MASTODON_CONTEXT, { oneOf: [option("a", -4), option("b", 1.5), option("c", 2 ** 60), option("d", 7)], votersCount: -1 }));
  expect(poll?.optionVotes).toEqual([0, 0, 0, 7]);
  expect(poll?.votersCount).toBe(0);
});

test("hostile: at most POLL_IN_LIMITS.maxOptions options are read", async () => {
  const poll = await read(question(MASTODON_CONTEXT, { anyOf: Array.from({ length: 100 }, (_, i) => option(`option ${i}`)) }));
  expect(poll?.options).toHaveLength(POLL_IN_LIMITS.maxOptions);
});
