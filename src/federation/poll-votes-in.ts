// Votes from other servers on our polls (docs/federation.md, "Polls"): Mastodon sends each choice as a Create of
// a Note whose `name` is the option's title, `inReplyTo` the Question, addressed to its author. Such a Note is
// a vote, never a status; domain/polls/vote-remote.ts decides whether it counts.
import { plainText } from "../lib/sanitize.ts";
import { statusByUri } from "../domain/statuses/remote.ts";
import { recordRemoteVote } from "../domain/polls/vote-remote.ts";
import type { FederationDeps } from "./context.ts";
import type { NoteLike } from "./note-checks.ts";
import { POLL_IN_LIMITS } from "./note-poll.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** Whether `note` is a vote on a local poll (counted or not): then it is not to be stored as a status. */
export async function countedAsVote(deps: FederationDeps, note: NoteLike, voter: AccountRecord): Promise<boolean> {
  const name = note.name?.toString();
  const target = note.replyTargetId;
  if (!name || !target) return false;
  const status = statusByUri(deps, target.href);
  if (!status?.local || !status.hasPoll) return false;
  // Only the voter's own vote: attributed to the signer alone (the Create's object is on its origin already).
  const own = note.attributionIds.length === 1 && note.attributionId?.href === voter.uri;
  if (own && name.length <= POLL_IN_LIMITS.maxOptionLength * 4) await recordRemoteVote(deps, voter, status, plainText(name).trim());
  return true;
}
