// Starting a poll on a status (posting, or an edit that changes it), reading one as its viewer may, and the
// timer that closes it. A poll is keyed by its status (store/polls.ts) and its API id is the status's id.
import type { JobEnqueuer } from "../../jobs/queue.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getPoll, getPollVote, putPoll, removePollVotes } from "../../store/polls.ts";
import { getStatus } from "../../store/statuses.ts";
import { assertVisible } from "../policy/interaction.ts";
import type { PollDraft } from "./input.ts";
import { POLL_EXPIRY } from "../job-names.ts";
import type { PollRecord, StatusRecord } from "../../model/statuses.ts";

/** A timer, not an event: closes a poll when it ends (domain/polls/expire.ts). */
export type PollExpiry = { statusId: string; expiresAt: number };

/** Inside a write: the poll of `statusId` as drafted, with no votes, and the job that closes it at its end.
 * Replaces any poll the status had, votes included (Mastodon resets the votes of an edited poll). */
export function startPoll(deps: { store: Store; jobs: JobEnqueuer }, statusId: string, draft: PollDraft, now: number): PollRecord {
  const expiresAt = now + draft.expiresInSeconds * 1000;
  const poll: PollRecord = {
    v: 1,
    statusId,
    options: draft.options,
    optionVotes: draft.options.map(() => 0),
    votesCount: 0,
    votersCount: 0,
    multiple: draft.multiple,
    hideTotals: draft.hideTotals,
    expiresAt,
    notifiedAt: null,
  };
  removePollVotes(deps.store, statusId);
  putPoll(deps.store, poll);
  const expiry: PollExpiry = { statusId, expiresAt };
  deps.jobs.enqueue(POLL_EXPIRY, expiry, { delayMs: expiresAt - now });
  return poll;
}

export function pollExpired(poll: PollRecord, now = Date.now()): boolean {
  return poll.expiresAt !== null && poll.expiresAt <= now;
}

/** A poll with what its viewer voted: null for anonymous viewers (no `voted`, no `own_votes`). */
export interface LoadedPoll {
  poll: PollRecord;
  ownVotes: number[] | null;
  /** Mastodon's Poll#voted?: the author counts as having voted (clients then show the results). */
  voted: boolean;
}

export function loadPoll(store: Store, viewerId: string | null, status: StatusRecord, poll: PollRecord): LoadedPoll {
  if (!viewerId) return { poll, ownVotes: null, voted: false };
  const vote = getPollVote(store, status.id, viewerId);
  return { poll, ownVotes: vote?.choices ?? [], voted: !!vote || viewerId === status.accountId };
}

/** GET /api/v1/polls/:id: the poll of a status its viewer may see; 404 otherwise. */
export function visiblePoll(store: Store, viewerId: string | null, rawId: string): { status: StatusRecord; poll: PollRecord } {
  const id = normaliseId(rawId);
  const status = id ? getStatus(store, id) : undefined;
  const poll = status?.hasPoll ? getPoll(store, status.id) : undefined;
  if (!poll) throw new NotFound();
  assertVisible(store, viewerId, status);
  return { status, poll };
}

/** GET /api/v1/polls/:id as its viewer sees it. */
export function readPoll(store: Store, viewerId: string | null, rawId: string): LoadedPoll {
  const { status, poll } = visiblePoll(store, viewerId, rawId);
  return loadPoll(store, viewerId, status, poll);
}
