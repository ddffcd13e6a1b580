// A vote from another server on a local poll (federation/poll-votes-in.ts reads it: a Note naming an option, in
// reply to the Question), counted as Mastodon counts one: the option by its title, while the poll is open, by
// an account that may see the status and is not blocked either way; once per poll for a single choice, once
// per option for several. Counted in the write that stores it; the results go out later (results.ts).
import type { Deps } from "../../deps.ts";
import { getPoll, getPollVote, putPoll, putPollVote } from "../../store/polls.ts";
import { blockedEitherWay } from "../../store/relationships.ts";
import { recordEvent } from "../events.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { pollExpired } from "./poll.ts";
import { scheduleResults } from "./results.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Whether the vote was counted. */
export async function recordRemoteVote(deps: Deps, voter: AccountRecord, status: StatusRecord, title: string): Promise<boolean> {
  const { store } = deps;
  if (!status.local || status.accountId === voter.id || blockedEitherWay(store, voter.id, status.accountId)) return false;
  if (!canSeeStatus(store, voter.id, status)) return false;
  return store.write(() => {
    const poll = getPoll(store, status.id);
    const now = Date.now();
    const choice = poll ? poll.options.indexOf(title) : -1;
    if (!poll || choice < 0 || pollExpired(poll, now)) return false;
    const previous = getPollVote(store, status.id, voter.id);
    if (previous && (!poll.multiple || previous.choices.includes(choice))) return false;
    const choices = [...(previous?.choices ?? []), choice].sort((a, b) => a - b);
    putPollVote(store, status.id, voter.id, { choices, at: now });
    const optionVotes = poll.optionVotes.map((count, i) => (i === choice ? count + 1 : count));
    const counted = { ...poll, optionVotes, votesCount: poll.votesCount + 1, votersCount: poll.votersCount + (previous ? 0 : 1) };
    putPoll(store, scheduleResults(deps, status, counted, now));
    recordEvent(deps, "poll.voted", { statusId: status.id, accountId: voter.id, choices: [choice] }, "remote", now);
    return true;
  });
}
