// Incoming statuses (docs/federation.md, "Statuses (incoming)"): a Create of a Note (an Article is read as a
// Note, a Question as a Note with its poll) becomes a remote status through domain/statuses/remote.ts. What
// another server sends is hostile until checked: the object must be on the signer's origin and attributed to
// the signer, addressed to someone, and of bounded size; its HTML is reduced to Mastodon's tags; its tags and
// attachments are read only as embedded (never fetched). It is kept only when someone here cares (Mastodon's
// rule): the author is followed from here, a local account is mentioned or addressed, or it replies to a
// status by a local account or one followed from here; the parent of a reply to an unknown status is fetched.
// A Create replayed with the same Note id stores nothing, nor one of a status deleted (a tombstone stands).
// The Note is read by note-draft.ts, its quote (FEP-044f) by quotes-in.ts.
import type { Create } from "@fedify/vocab";
import type { InboxContext } from "@fedify/fedify";
import { getAccount } from "../store/accounts.ts";
import { followerIdsOf } from "../store/relationships.ts";
import { statusByUri, storeRemoteStatus, type RemoteStatusDraft } from "../domain/statuses/remote.ts";
import { getStatus } from "../store/statuses.ts";
import type { FederationDeps } from "./context.ts";
import { remoteSender } from "./inbound-accounts.ts";
import { isNoteLike, sameOrigin } from "./note-checks.ts";
import { noteDraft } from "./note-draft.ts";
import { fetchStatus } from "./threads.ts";
import { rawJsonOf } from "./note-attachments.ts";
import { countedAsVote } from "./poll-votes-in.ts";
import { queueStatusFetches } from "./thread-queue.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** Is this account followed from here? (Remote accounts' followers rows are all local accounts.) */
export function followedFromHere(deps: FederationDeps, accountId: string): boolean {
  return !followerIdsOf(deps.store, accountId)[Symbol.iterator]().next().done;
}

/** Mastodon's rule for unsolicited statuses: kept when it concerns someone here. */
function concernsUs(deps: FederationDeps, author: AccountRecord, draft: RemoteStatusDraft): boolean {
  if (draft.mentionIds.some((id) => getAccount(deps.store, id)?.domain === null) || followedFromHere(deps, author.id)) return true;
  const parent = draft.parent;
  // A quote of a local status concerns its author (Mastodon keeps it too).
  if (draft.quote && getStatus(deps.store, draft.quote.statusId)?.local) return true;
  return !!parent && (parent.local || followedFromHere(deps, parent.accountId));
}

export async function onCreate(deps: FederationDeps, ctx: InboxContext<void>, activity: Create): Promise<void> {
  const objectId = activity.objectId;
  const author = await remoteSender(deps, activity.actorId);
  // The object must be the signer's: on its origin (checked before anything is fetched) and attributed to it.
  if (!author || !objectId || !sameOrigin(objectId, author.uri)) return;
  const note = await activity.getObject({ crossOrigin: "throw" }).catch(() => null);
  if (!isNoteLike(note)) return;
  if (statusByUri(deps, note.id?.href ?? "")) return;
  // A vote on one of our polls is a Note naming an option, in reply to the Question (poll-votes-in.ts).
  if (await countedAsVote(deps, note, author)) return;
  const raw = rawJsonOf(note, activity);
  const draft = await noteDraft(deps, ctx, note, author, { fetchQuoted: (uri) => fetchStatus(deps, uri, 0), raw });
  if (!draft || statusByUri(deps, draft.uri)) return;
  if (!concernsUs(deps, author, draft)) return;
  // A reply to a status not seen yet: the parent is fetched (threads.ts), so the reply joins its thread. Only
  // the parent: each fetch may take two 10 s requests (Note, author), and the inbox job has a minute.
  // The rest of its thread, and the parent itself if that fetch failed, come in background jobs (thread-fetch.ts).
  draft.inReplyToUri = note.replyTargetId?.href ?? null;
  if (!draft.parent && note.replyTargetId) draft.parent = await fetchStatus(deps, note.replyTargetId, 0);
  const stored = await storeRemoteStatus(deps, author, draft);
  if (stored) await queueStatusFetches(deps, stored);
}
