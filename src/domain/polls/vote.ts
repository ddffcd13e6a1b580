// POST /api/v1/polls/:id/votes: one vote per account on a single-choice poll, new choices only on a multiple-
// choice one, counted in the write that stores them, so concurrent votes never lose a count (LMDB serialises
// writes; the poll is re-read inside the write).
import type { Deps } from "../../deps.ts";
import { NotPermitted, Unprocessable } from "../../lib/errors.ts";
import { getPoll, getPollVote, putPoll, putPollVote } from "../../store/polls.ts";
import { blockedEitherWay } from "../../store/relationships.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { recordEvent } from "../events.ts";
import { loadPoll, pollExpired, visiblePoll, type LoadedPoll } from "./poll.ts";
import { scheduleResults } from "./results.ts";

/** Longer choice lists are refused before they are read. */
const MAX_CHOICES = 64;

function parseChoices(raw: readonly string[], optionCount: number, multiple: boolean): number[] {
  if (raw.length === 0) throw new Unprocessable("Validation failed: Choices can't be blank");
  if (raw.length > MAX_CHOICES) throw new Unprocessable("Validation failed: Choice is not a valid option");
  const choices = new Set<number>();
  for (const text of raw) {
    const trimmed = text.trim();
    const index = /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : NaN;
    if (!(index >= 0 && index < optionCount)) throw new Unprocessable("Validation failed: Choice is not a valid option");
    choices.add(index);
  }
  if (!multiple && choices.size > 1) throw new Unprocessable("Validation failed: This poll accepts a single choice");
  return [...choices].sort((a, b) => a - b);
}

export async function voteOnPoll(deps: Deps, viewer: UserViewer, rawId: string, rawChoices: readonly string[]): Promise<LoadedPoll> {
  const { store } = deps;
  const voterId = viewer.account.id;
  const { status, poll } = visiblePoll(store, voterId, rawId);
  if (blockedEitherWay(store, voterId, status.accountId)) throw new NotPermitted();
  const choices = parseChoices(rawChoices, poll.options.length, poll.multiple);
  return store.write(() => {
    const current = getPoll(store, status.id);
    // An edit may have changed the options since the choices were read: they would count for other answers.
    const sameOptions = current && current.options.length === poll.options.length && current.options.every((o, i) => o === poll.options[i]);
    if (!current || !sameOptions) throw new Unprocessable("Validation failed: Choice is not a valid option");
    const now = Date.now();
    if (pollExpired(current, now)) throw new Unprocessable("Validation failed: The poll has already ended");
    // As Mastodon's VoteValidator: one vote on a single-choice poll; on a multiple-choice one, more votes later
    // for choices not yet taken (the voter is counted once).
    const previous = getPollVote(store, status.id, voterId);
    if (previous && (!current.multiple || choices.some((c) => previous.choices.includes(c)))) {
      throw new Unprocessable("Validation failed: You have already voted on this poll");
    }
    putPollVote(store, status.id, voterId, { choices: [...(previous?.choices ?? []), ...choices], at: now });
    const optionVotes = current.optionVotes.map((count, i) => (choices.includes(i) ? count + 1 : count));
    const votersCount = current.votersCount + (previous ? 0 : 1);
    const updated = scheduleResults(deps, status, { ...current, optionVotes, votesCount: current.votesCount + choices.length, votersCount }, now);
    putPoll(store, updated);
    // A vote on another server's poll goes to its author (federation/poll-votes-out.ts).
    recordEvent(deps, "poll.voted", { statusId: status.id, accountId: voterId, choices }, "local", now);
    return loadPoll(store, voterId, status, updated);
  });
}
