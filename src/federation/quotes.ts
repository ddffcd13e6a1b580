// Quote posts across servers (FEP-044f, as Mastodon 4.5; docs/federation.md "Quotes"). The rules are in
// domain/quotes/remote.ts; this is the wire:
//   out: a Note carries `quote` (+ `quoteUri`, `_misskey_quote`, `quoteUrl` for older peers), once accepted
//        `quoteAuthorization`, and `interactionPolicy.canQuote` from `quote_approval_policy`; a local quote of a
//        remote status sends a QuoteRequest {object: quoted uri, instrument: our Note} to its author; revoking a
//        remote quote of a local status sends a Delete of our QuoteAuthorization to the quoting author;
//   in:  a Note's quote is read (a local quoted status decides by its policy; a remote one needs a
//        QuoteAuthorization fetched from its author's server and naming both statuses); a QuoteRequest to a
//        local author is answered Accept (result: the authorization) or Reject; an Accept/Reject of our
//        QuoteRequest settles our pending quote; a Delete of an authorization we were given revokes the quote.
// Our QuoteAuthorizations are served at `/users/{u}/quote_authorizations/{quoting status id}` while they stand.
// The inbox listeners are in quote-inbox.ts.
import type { Context, Federation } from "@fedify/fedify";
import {
  InteractionPolicy, InteractionRule, PUBLIC_COLLECTION, QuoteAuthorization, QuoteRequest, type Recipient,
} from "@fedify/vocab";
import { normaliseId } from "../lib/ids.ts";
import { findAccountByAcct, getAccount } from "../store/accounts.ts";
import type { AccountRecord, QuoteOfStatus, QuotePolicy, StatusRecord } from "../store/records.ts";
import { getStatus } from "../store/statuses.ts";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import { incomingQuote, localAuthorizationUri } from "../domain/quotes/remote.ts";
import { statusByUri } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./index.ts";
import { context } from "./follows.ts";
import { recipientOf } from "./recipients.ts";
import { isPublic, NOTE_LIMITS, sameOrigin, type NoteLike } from "./inbound-notes.ts";
import { localAuthorOf, noteOf } from "./notes.ts";

const deliverable = (account: AccountRecord | undefined): account is AccountRecord =>
  !!account && account.domain !== null && !account.suspended && !!account.inbox;

/** The id of our QuoteRequest for a local quoting status (a fragment of its uri, so it names it). */
const quoteRequestId = (status: StatusRecord) => new URL(`${status.uri}#quote_request`);

// Out: the Note's fields

/** The quote fields and interactionPolicy of a local status's Note. */
export function quoteValuesOf(store: FederationDeps["store"], status: StatusRecord, author: AccountRecord, followers: URL) {
  const rule =
    status.quotePolicy === "public"
      ? [PUBLIC_COLLECTION]
      : status.quotePolicy === "followers"
        ? [followers, new URL(author.uri)]
        : [new URL(author.uri)];
  const interactionPolicy = new InteractionPolicy({ canQuote: new InteractionRule({ automaticApprovals: rule }) });
  const quote = status.quote;
  const quoted = quote ? getStatus(store, quote.statusId) : undefined;
  if (!quote || !quoted || quoted.deletedAt) return { interactionPolicy };
  return { interactionPolicy, quote: new URL(quoted.uri), quoteUrl: new URL(quoted.uri), quoteAuthorization: authorizationOf(store, status, quote, quoted) };
}

/** The authorization of an accepted quote: the one its author's server gave, or ours for a local quoted status. */
function authorizationOf(store: FederationDeps["store"], status: StatusRecord, quote: QuoteOfStatus, quoted: StatusRecord): URL | null {
  if (quote.state !== "accepted") return null;
  if (quote.authorizationUri) return new URL(quote.authorizationUri);
  const author = quoted.local ? getAccount(store, quoted.accountId) : undefined;
  return author ? new URL(localAuthorizationUri(author, status.id)) : null;
}

// In: a Note's quote and policy

/** Who may quote a remote status, from its `interactionPolicy.canQuote.automaticApproval`. */
export function readQuotePolicy(note: NoteLike, author: AccountRecord): QuotePolicy | undefined {
  const approvals = note.interactionPolicy?.canQuote?.automaticApprovals ?? [];
  if (approvals.some(isPublic)) return "public";
  if (author.followersUrl && approvals.some((url) => url.href === author.followersUrl)) return "followers";
  return undefined;
}

/** What a remote Note by `author` quotes, in the state it starts in; null when it quotes nothing we can find.
 * An unknown quoted status is fetched only when `fetchQuoted` (from an inbox, not while fetching a thread). */
export async function readQuote(deps: FederationDeps, ctx: Context<void>, note: NoteLike, author: AccountRecord, fetchQuoted: boolean): Promise<QuoteOfStatus | null> {
  const uri = note.quoteId ?? note.quoteUrl;
  if (!uri || !note.id || uri.href.length > NOTE_LIMITS.uri || (uri.protocol !== "https:" && uri.protocol !== "http:")) return null;
  let quoted = statusByUri(deps, uri.href) ?? null;
  if (!quoted && fetchQuoted && !sameOrigin(uri, deps.config.url)) {
    const { fetchStatus } = await import("./threads.ts");
    quoted = await fetchStatus(deps, uri, 0).catch(() => null);
  }
  if (!quoted || quoted.reblogOfId || quoted.deletedAt) return null;
  const authorization = quoted.local ? null : await verifiedAuthorization(deps, ctx, note.quoteAuthorizationId, note.id, quoted);
  return incomingQuote(deps.store, author, quoted, authorization);
}

/** The authorization `uri` if, fetched from its own origin, it is a QuoteAuthorization of the quoted author's
 * server, by that author, for exactly this quoting Note and quoted status; null otherwise. */
export async function verifiedAuthorization(deps: FederationDeps, ctx: Context<void>, uri: URL | null, quotingUri: URL, quoted: StatusRecord): Promise<string | null> {
  const quotedAuthor = getAccount(deps.store, quoted.accountId);
  if (!uri || !quotedAuthor || uri.href.length > NOTE_LIMITS.uri || !sameOrigin(uri, quotedAuthor.uri)) return null;
  // Fedify drops a document whose id is on another origin than the URL it was fetched from.
  const object = await ctx.lookupObject(uri.href).catch(() => null);
  if (!(object instanceof QuoteAuthorization) || object.id?.href !== uri.href) return null;
  const names = object.attributionId?.href === quotedAuthor.uri && object.interactionTargetId?.href === quoted.uri;
  return names && object.interactingObjectId?.href === quotingUri.href ? uri.href : null;
}

// Out: activities (subscribers)

/** status.created: a local quote of a remote status, pending, asks its author's server. */
export async function sendQuoteRequest(ctx: SubscriberContext, event: EventPayloads["status.created"]): Promise<void> {
  const status = getStatus(ctx.store, event.statusId);
  const author = status ? localAuthorOf(ctx.store, status) : null;
  const quoted = status?.quote?.state === "pending" ? getStatus(ctx.store, status.quote.statusId) : undefined;
  const quotedAuthor = quoted && !quoted.local ? getAccount(ctx.store, quoted.accountId) : undefined;
  if (!status || status.deletedAt || !author || !quoted || !deliverable(quotedAuthor)) return;
  const fed = await context(ctx);
  const note = noteOf(fed, ctx.store, ctx.config, status);
  if (!note) return;
  await fed.sendActivity(
    { identifier: author.username },
    recipientOf(quotedAuthor),
    new QuoteRequest({ id: quoteRequestId(status), actor: new URL(author.uri), object: new URL(quoted.uri), instrument: note }),
  );
}

/** quote.settled: our quote of a remote status was accepted; its Note, now with `quoteAuthorization`, goes to
 * its audience again as an Update (as Mastodon does), so other servers can verify the quote. */
export async function sendQuoteUpdate(ctx: SubscriberContext, event: EventPayloads["quote.settled"]): Promise<void> {
  const status = getStatus(ctx.store, event.statusId);
  const author = status ? localAuthorOf(ctx.store, status) : null;
  if (!status || status.deletedAt || status.quote?.state !== "accepted" || !status.quote.authorizationUri || !author || author.suspended) return;
  const { audienceOf, deliver } = await import("./status-delivery.ts");
  const { CompactedUpdate } = await import("./mastodon-terms.ts");
  await deliver(ctx, author, audienceOf(status), (fed) => {
    const note = noteOf(fed, ctx.store, ctx.config, status);
    if (!note) return null;
    const id = new URL(`${status.uri}#updates/quote/${encodeURIComponent(status.quote!.authorizationUri!)}`);
    return new CompactedUpdate({ id, actor: note.attributionId, tos: note.toIds, ccs: note.ccIds, object: note });
  });
}

/** quote.revoked: a local author revoked a quote of their status; our authorization is deleted where the quoting
 * status went: at its remote author's server, or, for a local quoting status, wherever its Note was delivered
 * (servers that verified our authorization revoke their copy). */
export async function sendAuthorizationDelete(ctx: SubscriberContext, event: EventPayloads["quote.revoked"]): Promise<void> {
  const quoting = getStatus(ctx.store, event.statusId);
  const quoted = getStatus(ctx.store, event.quotedStatusId);
  const quotedAuthor = quoted ? localAuthorOf(ctx.store, quoted) : null;
  if (!quoting || quoting.quote?.state !== "revoked" || !quotedAuthor) return;
  let recipients: Recipient[];
  let preferSharedInbox = false;
  if (quoting.local) {
    const quoter = localAuthorOf(ctx.store, quoting);
    if (!quoter) return;
    const { audienceOf, reach } = await import("./status-delivery.ts");
    ({ recipients, preferSharedInbox } = reach(ctx.store, quoter, audienceOf(quoting)));
  } else {
    const quoter = getAccount(ctx.store, quoting.accountId);
    recipients = deliverable(quoter) ? [recipientOf(quoter)] : [];
  }
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const authorization = new URL(localAuthorizationUri(quotedAuthor, quoting.id));
  const { CompactedDelete } = await import("./mastodon-terms.ts");
  await fed.sendActivity(
    { identifier: quotedAuthor.username },
    recipients,
    new CompactedDelete({ id: new URL(`${authorization.href}#delete`), actor: new URL(quotedAuthor.uri), object: authorization }),
    { preferSharedInbox },
  );
}

// Served

/** `/users/{u}/quote_authorizations/{id}`: ours while the quote stands (accepted, of a live status of `u`). */
export function setQuoteAuthorizations(federation: Federation<void>, deps: FederationDeps): void {
  federation.setObjectDispatcher(QuoteAuthorization, "/users/{identifier}/quote_authorizations/{id}", (_ctx, values) => {
    const id = normaliseId(values.id);
    const quoting = id ? getStatus(deps.store, id) : undefined;
    const quote = quoting?.quote;
    const quoted = quote?.state === "accepted" ? getStatus(deps.store, quote.statusId) : undefined;
    const author = quoted && !quoted.deletedAt ? localAuthorOf(deps.store, quoted) : null;
    const owner = findAccountByAcct(deps.store, values.identifier, null);
    if (!quoting || quoting.deletedAt || !author || author.suspended || owner?.id !== author.id) return null;
    return new QuoteAuthorization({
      id: new URL(localAuthorizationUri(author, quoting.id)),
      attribution: new URL(author.uri),
      interactingObject: new URL(quoting.uri),
      interactionTarget: new URL(quoted!.uri),
    });
  });
}
