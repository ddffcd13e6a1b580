// A Question's poll as other servers send it (docs/federation.md, "Polls"): `oneOf` (one choice) or `anyOf`
// (several), each option a named Note whose `replies.totalItems` is its count, `votersCount`, `endTime` and
// `closed`. Bounded: at most MAX_OPTIONS options, each name plain text of at most MAX_OPTION_LENGTH characters,
// counts non-negative safe integers. Only what the Question embeds is read.
import { Question, type Note } from "@fedify/vocab";
import { plainText } from "../lib/sanitize.ts";
import type { RemotePoll } from "../domain/polls/remote.ts";
import { readOptions } from "./note-attachments.ts";
import type { NoteLike } from "./note-checks.ts";

export const POLL_IN_LIMITS = { maxOptions: 20, maxOptionLength: 500 } as const;

const count = (n: number | null | undefined) => (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0);

async function optionsOf(options: AsyncIterable<unknown>): Promise<{ title: string; votes: number }[]> {
  const out: { title: string; votes: number }[] = [];
  for await (const option of options) {
    if (out.length >= POLL_IN_LIMITS.maxOptions) break;
    const note = option as Note;
    const title = plainText(note.name?.toString() ?? "").trim().slice(0, POLL_IN_LIMITS.maxOptionLength);
    if (!title) continue;
    const replies = await note.getReplies(readOptions).catch(() => null);
    out.push({ title, votes: count(replies?.totalItems) });
  }
  return out;
}

/** The poll a Question carries, or null (not a Question, or fewer than two options, or repeated ones). */
export async function pollOf(note: NoteLike): Promise<RemotePoll | null> {
  if (!(note instanceof Question)) return null;
  const multiple = note.inclusiveOptionIds.length > 0 || (await hasAny(note.getInclusiveOptions(readOptions)));
  const options = await optionsOf(multiple ? note.getInclusiveOptions(readOptions) : note.getExclusiveOptions(readOptions));
  if (options.length < 2 || new Set(options.map((o) => o.title)).size !== options.length) return null;
  // `closed` is an instant or a boolean; not `instanceof Temporal.Instant`: Fedify's instants are its polyfill's.
  const end = note.endTime ?? (typeof note.closed === "object" ? note.closed : null);
  const votes = options.map((o) => o.votes);
  const total = votes.reduce((a, b) => a + b, 0);
  return {
    options: options.map((o) => o.title),
    optionVotes: votes,
    multiple,
    // Servers that do not count voters (single-choice polls): each vote is a voter.
    votersCount: note.voters !== null ? count(note.voters) : multiple ? 0 : total,
    expiresAt: end ? Number(end.epochMilliseconds) : note.closed === true ? Date.now() : null,
  };
}

async function hasAny(items: AsyncIterable<unknown>): Promise<boolean> {
  for await (const _ of items) return true;
  return false;
}
