// Polls out (docs/federation.md, "Polls"): a local account's vote on another server's poll goes to the poll's
// author as Mastodon sends it, one Create of a Note per choice (`name`: the option's title, `inReplyTo`: the
// Question); a local poll's counts go out as an Update of its Question (domain/polls/results.ts says when) to
// the status's audience and the servers of the accounts that voted.
import { Create, Note, type Recipient } from "@fedify/vocab";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import type { PollResults } from "../domain/polls/results.ts";
import { publicId } from "../lib/ids.ts";
import { getAccount } from "../store/accounts.ts";
import { getPoll, getPollVote, pollVoterIds, putPoll } from "../store/polls.ts";
import { getStatus } from "../store/statuses.ts";
import { context } from "./fedify-context.ts";
import { CompactedUpdate } from "./mastodon-terms.ts";
import { localAuthorOf, noteOf } from "./notes.ts";
import { recipientOf } from "./recipients.ts";
import { audienceOf, reach } from "./status-delivery.ts";

/** poll.voted: a local vote on a remote poll, still standing, to the poll's author. */
export async function sendPollVote(ctx: SubscriberContext, event: EventPayloads["poll.voted"]): Promise<void> {
  const voter = getAccount(ctx.store, event.accountId);
  const status = getStatus(ctx.store, event.statusId);
  const author = status && !status.local ? getAccount(ctx.store, status.accountId) : undefined;
  const poll = status?.hasPoll ? getPoll(ctx.store, status.id) : undefined;
  const vote = getPollVote(ctx.store, event.statusId, event.accountId);
  if (!voter || voter.domain !== null || voter.suspended || !status || status.deletedAt || !author?.inbox || author.suspended || !poll || !vote) return;
  const fed = await context(ctx);
  const actor = new URL(voter.uri);
  const to = new URL(author.uri);
  for (const choice of event.choices) {
    const title = poll.options[choice];
    if (title === undefined || !vote.choices.includes(choice)) continue;
    const id = new URL(`${voter.uri}#votes/${publicId(status.id)}/${choice}`);
    const note = new Note({ id, attribution: actor, name: title, replyTarget: new URL(status.uri), to });
    await fed.sendActivity({ identifier: voter.username }, recipientOf(author), new Create({ id: new URL(`${id.href}/activity`), actor, to, object: note }));
  }
}

/** The POLL_RESULTS timer: a local poll's counts as an Update of its Question. */
export async function sendPollResults(ctx: SubscriberContext, job: PollResults): Promise<void> {
  await ctx.store.write(() => {
    const poll = getPoll(ctx.store, job.statusId);
    if (poll && (poll.resultsDueAt ?? null) !== null) putPoll(ctx.store, { ...poll, resultsDueAt: null });
  });
  const status = getStatus(ctx.store, job.statusId);
  const author = status && !status.deletedAt && !status.reblogOfId ? localAuthorOf(ctx.store, status) : null;
  if (!status?.hasPoll || !author || author.suspended) return;
  const { recipients, preferSharedInbox } = reach(ctx.store, author, audienceOf(status));
  const voters: Recipient[] = pollVoterIds(ctx.store, status.id).flatMap((id) => {
    const account = getAccount(ctx.store, id);
    return account && account.domain !== null && !account.suspended && account.inbox ? [recipientOf(account)] : [];
  });
  if (recipients.length + voters.length === 0) return;
  const fed = await context(ctx);
  const question = noteOf(fed, ctx.store, ctx.config, status);
  if (!question) return;
  const update = new CompactedUpdate({
    id: new URL(`${status.uri}#updates/poll/${Date.now()}`),
    actor: question.attributionId,
    tos: question.toIds,
    ccs: question.ccIds,
    object: question,
  });
  await fed.sendActivity({ identifier: author.username }, [...recipients, ...voters], update, { preferSharedInbox });
}
