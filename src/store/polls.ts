// Polls, keyed by the status they belong to (a status has at most one), and each account's vote on them.
// Typed reads and writes only; the rules live in domain/polls.

import type { PollRecord, PollVoteRecord } from "../model/statuses.ts";
import { END, type Store } from "./handle.ts";

export function getPoll(store: Store, statusId: string): PollRecord | undefined {
  return store.db.polls.get(["p", statusId]);
}

/** Inside a write. */
export function putPoll(store: Store, poll: PollRecord): void {
  store.db.polls.put(["p", poll.statusId], poll);
}

export function getPollVote(store: Store, statusId: string, accountId: string): PollVoteRecord | undefined {
  return store.db.polls.get(["v", statusId, accountId]);
}

/** Inside a write. */
export function putPollVote(store: Store, statusId: string, accountId: string, vote: PollVoteRecord): void {
  store.db.polls.put(["v", statusId, accountId], vote);
}

/** The accounts that voted on a status's poll, in account id order. */
export function pollVoterIds(store: Store, statusId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.polls.getKeys({ start: ["v", statusId], end: ["v", statusId, END] })) out.push((key as string[])[2]!);
  return out;
}

/** Inside a write: forgets every vote on a status's poll (an edit that changes the poll starts it afresh). */
export function removePollVotes(store: Store, statusId: string): void {
  for (const accountId of pollVoterIds(store, statusId)) store.db.polls.remove(["v", statusId, accountId]);
}

/** Inside a write: the poll and its votes (the status's removal). */
export function removePoll(store: Store, statusId: string): void {
  removePollVotes(store, statusId);
  store.db.polls.remove(["p", statusId]);
}
