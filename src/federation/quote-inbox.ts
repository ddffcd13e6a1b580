// Quote activities in (FEP-044f; docs/federation.md "Quotes"): a QuoteRequest to a local author is answered by
// the quoted status's policy (domain/quotes/remote.ts), Accept (result: our authorization) or Reject; an Accept
// or Reject of our QuoteRequest settles our pending quote; a Delete of an authorization we were given revokes
// the quote it authorized. Each acts only for the right actor, and twice changes nothing.
import type { Context, InboxContext } from "@fedify/fedify";
import { Accept, type Delete, QuoteRequest, Reject } from "@fedify/vocab";
import { getAccount } from "../store/accounts.ts";
import { getStatus } from "../store/statuses.ts";
import { localAuthorizationUri, revokeByAuthorization, settleQuote } from "../domain/quotes/remote.ts";
import { statusByUri, storeRemoteStatus } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./context.ts";
import { remoteSender } from "./inbound-accounts.ts";
import { recipientOf } from "./recipients.ts";
import { isNoteLike, sameOrigin } from "./note-checks.ts";
import { noteDraft } from "./note-draft.ts";
import { verifiedAuthorization } from "./quotes-in.ts";
import { localAuthorOf } from "./notes.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** A QuoteRequest to a local author: its instrument (the quoting Note, on the sender's origin, by the sender)
 * is stored, which decides the quote by the quoted status's policy; the answer is Accept or Reject. */
export async function onQuoteRequest(deps: FederationDeps, ctx: InboxContext<void>, activity: QuoteRequest): Promise<void> {
  const sender = await remoteSender(deps, activity.actorId);
  const target = activity.objectId ? statusByUri(deps, activity.objectId.href) : undefined;
  const instrumentId = activity.instrumentId;
  if (!sender || !target?.local || target.deletedAt || !instrumentId || !sameOrigin(instrumentId, sender.uri)) return;
  const quotedAuthor = localAuthorOf(deps.store, target);
  if (!quotedAuthor) return;
  let quoting = statusByUri(deps, instrumentId.href);
  if (!quoting) {
    const note = await activity.getInstrument({ crossOrigin: "throw" }).catch(() => null);
    if (!isNoteLike(note) || note.id?.href !== instrumentId.href) return;
    const draft = await noteDraft(deps, ctx, note, sender);
    if (!draft || draft.quote?.statusId !== target.id) return;
    quoting = (await storeRemoteStatus(deps, sender, draft)) ?? undefined;
  }
  if (!quoting || quoting.accountId !== sender.id || quoting.quote?.statusId !== target.id) return;
  const actor = new URL(quotedAuthor.uri);
  const request = new QuoteRequest({ id: activity.id, actor: new URL(sender.uri), object: new URL(target.uri), instrument: new URL(quoting.uri) });
  const accepted = quoting.quote.state === "accepted";
  const answerId = new URL(`${quotedAuthor.uri}#${accepted ? "accepts" : "rejects"}/quote_requests/${quoting.id}`);
  const answer = accepted
    ? new Accept({ id: answerId, actor, object: request, result: new URL(localAuthorizationUri(quotedAuthor, quoting.id)) })
    : new Reject({ id: answerId, actor, object: request });
  await ctx.sendActivity({ identifier: quotedAuthor.username }, recipientOf(sender), answer);
}

/** The local status whose pending quote an answer is about: the answer's object must be our QuoteRequest's id
 * (never trusted embedded; it may arrive without its fragment, which is then the quoting status's uri) and its
 * actor the quoted status's author. */
function answeredQuote(deps: FederationDeps, activity: Accept | Reject): StatusRecord | null {
  const objectId = activity.objectId;
  if (!objectId || (objectId.hash !== "#quote_request" && objectId.hash !== "")) return null;
  const bare = new URL(objectId.href);
  bare.hash = "";
  const quoting = statusByUri(deps, bare.href);
  const quoted = quoting?.local && quoting.quote ? getStatus(deps.store, quoting.quote.statusId) : undefined;
  const quotedAuthor = quoted ? getAccount(deps.store, quoted.accountId) : undefined;
  return quoting && quotedAuthor && quotedAuthor.uri === activity.actorId?.href ? quoting : null;
}

/** Accept of our QuoteRequest: accepted, with its `result` as the authorization once that, fetched from its own
 * origin (the accepting author's server), is a QuoteAuthorization by the quoted author naming both statuses. */
export async function onQuoteAccept(deps: FederationDeps, ctx: Context<void>, activity: Accept): Promise<void> {
  const quoting = answeredQuote(deps, activity);
  const quoted = quoting?.quote?.state === "pending" ? getStatus(deps.store, quoting.quote.statusId) : undefined;
  if (!quoting || !quoted) return;
  const authorization = await verifiedAuthorization(deps, ctx, activity.resultId, new URL(quoting.uri), quoted);
  if (authorization) await settleQuote(deps, quoting.id, { authorizationUri: authorization });
}

/** Reject of our QuoteRequest: rejected. */
export async function onQuoteReject(deps: FederationDeps, activity: Reject): Promise<void> {
  const quoting = answeredQuote(deps, activity);
  if (quoting) await settleQuote(deps, quoting.id, null);
}

/** Delete of a QuoteAuthorization we were given (by its author only): the quote is revoked. */
export async function onAuthorizationDelete(deps: FederationDeps, activity: Delete): Promise<void> {
  const objectId = activity.objectId;
  const actorId = activity.actorId;
  if (objectId && actorId && sameOrigin(objectId, actorId)) await revokeByAuthorization(deps, objectId.href, actorId.href);
}
