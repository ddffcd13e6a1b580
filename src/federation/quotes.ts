// Quote posts going out (FEP-044f, as Mastodon 4.5; docs/federation.md "Quotes"; the rules are in
// domain/quotes/remote.ts): a local quote of a remote status sends a QuoteRequest {object: quoted uri,
// instrument: our Note} to its author; once accepted, its Note goes out again as an Update; revoking a quote of
// a local status sends a Delete of our QuoteAuthorization. A Note's quote fields are written by notes.ts, our
// QuoteAuthorizations served by status-objects.ts at `/users/{u}/quote_authorizations/{quoting status id}`
// while they stand. Coming in: a Note's quote is read by quotes-in.ts, quote activities by quote-inbox.ts.
import { QuoteRequest, type Recipient } from "@fedify/vocab";
import { getAccount } from "../store/accounts.ts";
import { getStatus } from "../store/statuses.ts";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import { localAuthorizationUri } from "../domain/quotes/remote.ts";
import { context } from "./fedify-context.ts";
import { recipientOf } from "./recipients.ts";
import { localAuthorOf, noteOf } from "./notes.ts";
import { audienceOf, deliver, reach } from "./status-delivery.ts";
import { CompactedDelete, CompactedUpdate } from "./mastodon-terms.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

const deliverable = (account: AccountRecord | undefined): account is AccountRecord =>
  !!account && account.domain !== null && !account.suspended && !!account.inbox;

/** The id of our QuoteRequest for a local quoting status (a fragment of its uri, so it names it). */
const quoteRequestId = (status: StatusRecord) => new URL(`${status.uri}#quote_request`);

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
    ({ recipients, preferSharedInbox } = reach(ctx.store, quoter, audienceOf(quoting)));
  } else {
    const quoter = getAccount(ctx.store, quoting.accountId);
    recipients = deliverable(quoter) ? [recipientOf(quoter)] : [];
  }
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const authorization = new URL(localAuthorizationUri(quotedAuthor, quoting.id));
  await fed.sendActivity(
    { identifier: quotedAuthor.username },
    recipients,
    new CompactedDelete({ id: new URL(`${authorization.href}#delete`), actor: new URL(quotedAuthor.uri), object: authorization }),
    { preferSharedInbox },
  );
}

