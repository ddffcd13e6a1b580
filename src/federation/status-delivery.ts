// Outgoing statuses and interactions (docs/federation.md "Statuses (outgoing)"): local-only subscribers on the
// network lane (reactions/statuses.ts, reactions/interactions.ts) send, through Fedify's queue:
//   status.created   → Create(Note) to remote followers (one delivery per shared inbox), mentioned remote
//                      accounts, a quoted remote author and, when public or unlisted, the replied-to remote
//                      author; a direct status
//                      only to the personal inboxes of the remote accounts it mentions;
//   status.updated   → Update(Note) to the same audience;
//   status.deleted   → Delete(Tombstone), to Public, to the same audience (kept in the event: the record goes)
//                      and to the remote accounts that reblogged, favourited or replied to it;
//   reblog.created   → Announce to the reblogger's remote followers and the original's remote author;
//   reblog.removed   → Undo(Announce) to the same;
//   favourite.created / removed → Like / Undo(Like) of a remote status, to its author only.
// Each checks that what it announces still stands (a status deleted, a favourite undone since: nothing).
import type { Context } from "@fedify/fedify";
import { Announce, type Create, type Delete, Like, PUBLIC_COLLECTION, type Recipient, Undo, type Update } from "@fedify/vocab";
import { publicId } from "../lib/ids.ts";
import type { Store } from "../store/db.ts";
import { getAccount } from "../store/accounts.ts";
import { getStatus, reblogIdOf } from "../store/statuses.ts";
import { favouriteIdOf } from "../store/statuses-interactions.ts";
import type { EventPayloads, StatusAudience, SubscriberContext } from "../domain/events.ts";
import { context } from "./fedify-context.ts";
import { recipientOf, remoteFollowerRecipients } from "./recipients.ts";
import { addressedMentions, announceOf, createOf, localAuthorOf, noteOf } from "./notes.ts";
import { CompactedDelete, CompactedUpdate, mastodonTombstone } from "./mastodon-terms.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** Whether an account is a remote one that can be delivered to (not suspended, with an inbox). */
const deliverable = (account: AccountRecord) => account.domain !== null && !account.suspended && !!account.inbox;

/** The account `id` names, if it can be delivered to. */
function remoteRecipient(store: Store, id: string | null): AccountRecord | null {
  const account = id ? getAccount(store, id) : undefined;
  return account && deliverable(account) ? account : null;
}

/** Who a status reaches on other servers, and whether deliveries may go to shared inboxes. */
export function reach(store: Store, author: AccountRecord, audience: StatusAudience): { recipients: Recipient[]; preferSharedInbox: boolean } {
  const mentioned = addressedMentions(store, author, audience.mentionIds).filter(deliverable);
  // Those who hold a copy because they touched it (only a deletion's audience names them).
  const interactors = (audience.interactorIds ?? []).map((id) => remoteRecipient(store, id)).filter((a) => a !== null);
  // Direct: only the accounts it names, at their own inboxes (a shared inbox would hand it to the server).
  if (audience.visibility === "direct") return { recipients: [...mentioned, ...interactors].map(recipientOf), preferSharedInbox: false };
  const recipients = [...remoteFollowerRecipients(store, author.id), ...mentioned.map(recipientOf), ...interactors.map(recipientOf)];
  // The replied-to author outside a private status's audience must not get it (Mastodon's StatusReachFinder).
  const repliedTo = audience.visibility === "private" ? null : remoteRecipient(store, audience.inReplyToAccountId);
  if (repliedTo) recipients.push(recipientOf(repliedTo));
  // The quoted author sees a quote whatever its visibility (FEP-044f, quotes.ts), as Mastodon delivers it.
  const quoted = remoteRecipient(store, audience.quotedAccountId ?? null);
  if (quoted) recipients.push(recipientOf(quoted));
  return { recipients, preferSharedInbox: true };
}

/** Whom a status was addressed to (what the status.deleted event keeps, domain/statuses/delete.ts). */
export const audienceOf = (status: StatusRecord): StatusAudience => ({
  visibility: status.visibility,
  mentionIds: status.mentionIds,
  inReplyToAccountId: status.inReplyToAccountId,
  quotedAccountId: status.quote?.accountId ?? null,
});

/** A live local status (not a reblog) whose author may still speak. */
function liveLocalStatus(store: Store, statusId: string): { status: StatusRecord; author: AccountRecord } | null {
  const status = getStatus(store, statusId);
  if (!status || status.deletedAt || status.reblogOfId) return null;
  const author = localAuthorOf(store, status);
  return author && !author.suspended ? { status, author } : null;
}

/** Sends the activity `build` makes, as `author`, to whoever `audience` reaches. When that is nobody (an
 * instance that does not federate), Fedify is not even built. */
export async function deliver(
  ctx: SubscriberContext,
  author: AccountRecord,
  audience: StatusAudience,
  build: (fed: Context<void>) => Create | Update | Delete | null,
): Promise<void> {
  const { recipients, preferSharedInbox } = reach(ctx.store, author, audience);
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const activity = build(fed);
  if (activity) await fed.sendActivity({ identifier: author.username }, recipients, activity, { preferSharedInbox });
}

/** status.created: a local post. */
export async function sendCreate(ctx: SubscriberContext, event: EventPayloads["status.created"]): Promise<void> {
  const live = liveLocalStatus(ctx.store, event.statusId);
  if (live) await deliver(ctx, live.author, audienceOf(live.status), (fed) => createOf(fed, ctx.store, ctx.config, live.status));
}

/** status.updated: a local edit; the Note carries `updated`. */
export async function sendUpdate(ctx: SubscriberContext, event: EventPayloads["status.updated"]): Promise<void> {
  const live = liveLocalStatus(ctx.store, event.statusId);
  if (!live?.status.editedAt) return;
  const { status } = live;
  await deliver(ctx, live.author, audienceOf(status), (fed) => {
    const note = noteOf(fed, ctx.store, ctx.config, status);
    if (!note) return null;
    return new CompactedUpdate({
      id: new URL(`${status.uri}#updates/${status.editedAt}`),
      actor: note.attributionId,
      published: note.updated,
      tos: note.toIds,
      ccs: note.ccIds,
      object: note,
    });
  });
}

/** status.deleted: a local status is gone; its audience comes with the event, since the record is removed
 * meanwhile. Not for a suspended author (its actor is what goes) nor one whose data was deleted. */
export async function sendDelete(ctx: SubscriberContext, event: EventPayloads["status.deleted"]): Promise<void> {
  const stored = getStatus(ctx.store, event.statusId);
  const audience = event.audience ?? (stored ? audienceOf(stored) : null);
  const author = getAccount(ctx.store, event.accountId);
  if (!audience || !author || author.domain !== null || author.suspended || author.dataDeletedAt) return;
  if (stored && (!stored.local || stored.reblogOfId)) return;
  const uri = new URL(`${author.uri}/statuses/${publicId(event.statusId)}`);
  await deliver(ctx, author, audience, () =>
    new CompactedDelete({ id: new URL(`${uri.href}#delete`), actor: new URL(author.uri), to: PUBLIC_COLLECTION, object: mastodonTombstone(uri) }),
  );
}

/** The local reblogger of a reblog event, the original, and who hears of it: the reblogger's remote followers
 * and the original's author when remote. */
function reblogParties(ctx: SubscriberContext, event: EventPayloads["reblog.created"]) {
  const reblogger = getAccount(ctx.store, event.accountId);
  const original = getStatus(ctx.store, event.reblogOfId);
  if (!reblogger || reblogger.domain !== null || reblogger.suspended || !original) return null;
  const recipients = remoteFollowerRecipients(ctx.store, reblogger.id);
  const author = remoteRecipient(ctx.store, original.accountId);
  if (author) recipients.push(recipientOf(author));
  return { reblogger, original, recipients };
}

/** reblog.created: a local account reblogged a status. */
export async function sendAnnounce(ctx: SubscriberContext, event: EventPayloads["reblog.created"]): Promise<void> {
  const parties = reblogParties(ctx, event);
  // Undone (or undone and made again, which sends its own) since.
  if (!parties || reblogIdOf(ctx.store, parties.reblogger.id, parties.original.id) !== event.statusId) return;
  const wrapper = getStatus(ctx.store, event.statusId);
  if (!wrapper || parties.recipients.length === 0) return;
  const fed = await context(ctx);
  const announce = announceOf(fed, ctx.store, wrapper);
  if (!announce) return;
  await fed.sendActivity({ identifier: parties.reblogger.username }, parties.recipients, announce, { preferSharedInbox: true });
}

/** reblog.removed: a local account took its reblog back. */
export async function sendUndoAnnounce(ctx: SubscriberContext, event: EventPayloads["reblog.removed"]): Promise<void> {
  const parties = reblogParties(ctx, event);
  if (!parties || reblogIdOf(ctx.store, parties.reblogger.id, parties.original.id) || parties.recipients.length === 0) return;
  const fed = await context(ctx);
  const actor = new URL(parties.reblogger.uri);
  const announceId = `${parties.reblogger.uri}/statuses/${publicId(event.statusId)}/activity`;
  await fed.sendActivity(
    { identifier: parties.reblogger.username },
    parties.recipients,
    new Undo({
      id: new URL(`${parties.reblogger.uri}#announces/${publicId(event.statusId)}/undo`),
      actor,
      to: PUBLIC_COLLECTION,
      object: new Announce({ id: new URL(announceId), actor, object: new URL(parties.original.uri) }),
    }),
    { preferSharedInbox: true },
  );
}

/** The local favouriter and the remote author of a favourite event's status, or null when none is to be sent. */
function likeParties(ctx: SubscriberContext, event: EventPayloads["favourite.created"]) {
  const favouriter = getAccount(ctx.store, event.accountId);
  const status = getStatus(ctx.store, event.statusId);
  const author = status && !status.local ? remoteRecipient(ctx.store, status.accountId) : null;
  if (!favouriter || favouriter.domain !== null || favouriter.suspended || !status || !author) return null;
  return { favouriter, status, author };
}

const likeId = (favouriter: AccountRecord, favouriteId: string) => new URL(`${favouriter.uri}#likes/${publicId(favouriteId)}`);

/** favourite.created: a local account favourited a remote status; its author alone is told. */
export async function sendLike(ctx: SubscriberContext, event: EventPayloads["favourite.created"]): Promise<void> {
  const parties = likeParties(ctx, event);
  if (!parties || favouriteIdOf(ctx.store, parties.favouriter.id, parties.status.id) !== event.favouriteId) return;
  const fed = await context(ctx);
  const actor = new URL(parties.favouriter.uri);
  await fed.sendActivity(
    { identifier: parties.favouriter.username },
    recipientOf(parties.author),
    new Like({ id: likeId(parties.favouriter, event.favouriteId), actor, object: new URL(parties.status.uri) }),
  );
}

/** favourite.removed: the favourite was taken back (unless favourited again since). */
export async function sendUndoLike(ctx: SubscriberContext, event: EventPayloads["favourite.removed"]): Promise<void> {
  const parties = likeParties(ctx, event);
  if (!parties || favouriteIdOf(ctx.store, parties.favouriter.id, parties.status.id)) return;
  const fed = await context(ctx);
  const actor = new URL(parties.favouriter.uri);
  const like = likeId(parties.favouriter, event.favouriteId);
  await fed.sendActivity(
    { identifier: parties.favouriter.username },
    recipientOf(parties.author),
    new Undo({ id: new URL(`${like.href}/undo`), actor, object: new Like({ id: like, actor, object: new URL(parties.status.uri) }) }),
  );
}
