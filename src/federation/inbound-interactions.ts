// Incoming interactions with statuses (docs/federation.md, "Statuses (incoming)"): Announce, Like (and emoji
// reactions, as favourites), their Undo, Delete and Update of a Note. Each calls the same core as the API (reblog, favourite, unreblog,
// unfavourite, discardAndRecord) with the remote account as actor and origin "remote", so the policy rules,
// counters and notifications are the API's. The actor must be the signer (Fedify verified the signature of
// `actor`) and own what it deletes, updates or undoes; anything else is ignored, as is what the cores refuse.
import { Announce, EmojiReact, Like, type Delete, type Undo, type Update } from "@fedify/vocab";
import type { Context, InboxContext } from "@fedify/fedify";
import { ApiError } from "../lib/errors.ts";
import { getStatus } from "../store/statuses.ts";
import { reblog, unreblog, type ReblogVisibility } from "../domain/statuses/reblog.ts";
import { favourite, unfavourite } from "../domain/statuses/favourite.ts";
import { discardAndRecord } from "../domain/statuses/delete.ts";
import { statusByUri } from "../domain/statuses/remote.ts";
import { editRemoteStatus } from "../domain/statuses/remote-edit.ts";
import { putStatusTombstone } from "../store/status-tombstones.ts";
import { settleQuote } from "../domain/quotes/remote.ts";
import type { FederationDeps } from "./context.ts";
import { remoteSender } from "./inbound-accounts.ts";
import { followedFromHere } from "./inbound-notes.ts";
import { isNoteLike, isPublic, NOTE_LIMITS, sameOrigin } from "./note-checks.ts";
import { noteDraft } from "./note-draft.ts";
import { rawJsonOf } from "./note-attachments.ts";
import { fetchStatus } from "./threads.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";
import { queueStatusFetches } from "./thread-queue.ts";

/** What a core refuses (not visible, blocked, a private status reblogged) is ignored, not retried. */
async function unlessRefused(action: Promise<unknown>): Promise<void> {
  try {
    await action;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
}

function announceVisibility(activity: Announce): ReblogVisibility {
  if (activity.toIds.some(isPublic)) return "public";
  return activity.ccIds.some(isPublic) ? "unlisted" : "private";
}

/** A status's author takes back its reblog wrapper (an Undo(Announce), or a Delete of the Announce). */
async function takeBack(deps: FederationDeps, actor: AccountRecord, wrapper: StatusRecord): Promise<void> {
  const original = getStatus(deps.store, wrapper.reblogOfId!);
  if (original) await unreblog(deps, actor, original, "remote");
}

/** Announce: a reblog, when the booster is followed from here or boosts a local status (fetched if unknown). */
export async function onAnnounce(deps: FederationDeps, _ctx: InboxContext<void>, activity: Announce): Promise<void> {
  const actor = await remoteSender(deps, activity.actorId);
  const id = activity.id;
  const objectId = activity.objectId;
  if (!actor || !id || !objectId || id.href.length > NOTE_LIMITS.uri || statusByUri(deps, id.href)) return;
  let original = statusByUri(deps, objectId.href) ?? null;
  if (!followedFromHere(deps, actor.id) && !original?.local) return;
  original ??= await fetchStatus(deps, objectId);
  if (!original || original.reblogOfId) return;
  await unlessRefused(reblog(deps, actor, original, announceVisibility(activity), { uri: id.href }));
}

/** Like: a favourite of one of our statuses (others' are not counted here). An emoji reaction (EmojiReact, or
 * Misskey's Like with `_misskey_reaction`) counts as a favourite, as on Mastodon. */
export async function onLike(deps: FederationDeps, _ctx: InboxContext<void>, activity: Like | EmojiReact): Promise<void> {
  const actor = await remoteSender(deps, activity.actorId);
  const status = activity.objectId ? statusByUri(deps, activity.objectId.href) : undefined;
  if (!actor || !status?.local || status.reblogOfId) return;
  await unlessRefused(favourite(deps, actor, status, "remote"));
}

/** Undo(Like), Undo(EmojiReact) and Undo(Announce) (dispatched by undo.ts): only the actor of the undone activity. */
export async function undoInteraction(deps: FederationDeps, undo: Undo, object: Like | EmojiReact | Announce): Promise<void> {
  const actor = await remoteSender(deps, undo.actorId);
  if (!actor || object.actorId?.href !== actor.uri) return;
  if (object instanceof Like || object instanceof EmojiReact) {
    const status = object.objectId ? statusByUri(deps, object.objectId.href) : undefined;
    if (status?.local) await unfavourite(deps, actor, status, "remote");
    return;
  }
  const wrapper = object.id ? statusByUri(deps, object.id.href) : undefined;
  if (wrapper?.reblogOfId && wrapper.accountId === actor.id) await takeBack(deps, actor, wrapper);
}

/** Delete of a status (or an Announce) by its author: gone from every read path, as the API's delete. A
 * tombstone of the id is kept (store/status-tombstones.ts), also for a status not seen yet, on the actor's
 * origin: a Create of it arriving late or replayed is then refused. */
export async function onStatusDelete(deps: FederationDeps, activity: Delete): Promise<void> {
  const objectId = activity.objectId;
  if (!objectId || objectId.href.length > NOTE_LIMITS.uri) return;
  const status = statusByUri(deps, objectId.href);
  if (status?.local || (!status && objectId.href === activity.actorId?.href)) return;
  const actor = await remoteSender(deps, activity.actorId);
  if (!actor) return;
  if (!status) {
    if (sameOrigin(objectId, actor.uri)) await deps.store.write(() => putStatusTombstone(deps.store, objectId.href, Date.now()));
    return;
  }
  if (status.accountId !== actor.id) return;
  if (status.reblogOfId) return takeBack(deps, actor, status);
  await deps.store.write(() => putStatusTombstone(deps.store, status.uri, Date.now()));
  await discardAndRecord(deps, status, "remote");
}

/** Update of a Note by its author: everything it carries changes (domain/statuses/remote-edit.ts). */
export async function onStatusUpdate(deps: FederationDeps, ctx: Context<void>, activity: Update): Promise<void> {
  const objectId = activity.objectId;
  const status = objectId ? statusByUri(deps, objectId.href) : undefined;
  if (!status || status.local || status.reblogOfId) return;
  const actor = await remoteSender(deps, activity.actorId);
  if (!actor || status.accountId !== actor.id || !sameOrigin(objectId!, actor.uri)) return;
  const note = await activity.getObject({ crossOrigin: "throw" }).catch(() => null);
  if (!isNoteLike(note)) return;
  const draft = await noteDraft(deps, ctx, note, actor, { raw: rawJsonOf(note, activity) });
  if (!draft || draft.uri !== status.uri) return;
  const updated = note.updated ? Math.min(Number(note.updated.epochMilliseconds), Date.now()) : null;
  await editRemoteStatus(deps, status, draft, updated);
  // Attachments and emojis the edit brought are fetched as on Create (thread-fetch.ts; no thread fetch).
  const edited = getStatus(deps.store, status.id);
  if (edited && !edited.deletedAt) await queueStatusFetches(deps, edited, 0);
  // FEP-044f: the quoting server sends an Update once the quoted author's server authorized the quote (quotes.ts
  // verified that authorization while reading the Note).
  const quote = draft.quote;
  if (status.quote?.state === "pending" && quote?.state === "accepted" && quote.statusId === status.quote.statusId && quote.authorizationUri) {
    await settleQuote(deps, status.id, { authorizationUri: quote.authorizationUri });
  }
}
