// Polls of other servers' statuses (a Question; federation/note-poll.ts reads it): stored as local polls are
// (store/polls.ts), their counts as the author's server reports them. An Update of the Question refreshes the
// counts; changed options start the poll afresh (local votes forgotten), as Mastodon does. The end is a
// `polls.expire` timer like a local poll's, which tells the local voters (expire.ts).
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { getPoll, putPoll, removePoll, removePollVotes } from "../../store/polls.ts";
import { POLL_EXPIRY } from "../job-names.ts";
import type { PollExpiry } from "./poll.ts";
import type { PollRecord } from "../../model/statuses.ts";

/** A poll as another server describes it, already bounded and sanitised. */
export interface RemotePoll {
  options: string[];
  optionVotes: number[];
  multiple: boolean;
  votersCount: number;
  /** ms; null for a poll without an end */
  expiresAt: number | null;
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Inside a write: the status's poll as `remote` describes it (null: it has none any more). */
export function putRemotePoll(deps: { store: Store; jobs: JobEnqueuer }, statusId: string, remote: RemotePoll | null, now: number): PollRecord | null {
  const before = getPoll(deps.store, statusId) ?? null;
  if (!remote) {
    if (before) removePoll(deps.store, statusId);
    return null;
  }
  const sameOptions = !!before && sameList(before.options, remote.options) && before.multiple === remote.multiple;
  if (before && !sameOptions) removePollVotes(deps.store, statusId);
  const poll: PollRecord = {
    v: 1,
    statusId,
    options: remote.options,
    optionVotes: remote.optionVotes,
    votesCount: remote.optionVotes.reduce((a, b) => a + b, 0),
    votersCount: remote.votersCount,
    multiple: remote.multiple,
    hideTotals: false,
    expiresAt: remote.expiresAt,
    notifiedAt: sameOptions && before.expiresAt === remote.expiresAt ? before.notifiedAt : null,
  };
  putPoll(deps.store, poll);
  if (poll.expiresAt !== null && poll.notifiedAt === null && poll.expiresAt !== before?.expiresAt) {
    const expiry: PollExpiry = { statusId, expiresAt: poll.expiresAt };
    deps.jobs.enqueue(POLL_EXPIRY, expiry, { delayMs: Math.max(0, poll.expiresAt - now) });
  }
  return poll;
}
