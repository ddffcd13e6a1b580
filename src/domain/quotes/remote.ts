// Quotes that cross servers (FEP-044f, as Mastodon 4.5; the wire is src/federation/quotes.ts). Our records stay
// the authority for our statuses: a remote status quoting a local one is accepted when the local status's
// policy lets its author (quote_approval_policy), and rejected otherwise (a private status never). A remote
// status quoting another remote one is pending until a QuoteAuthorization from the quoted author's server is
// verified. A local quote of a remote status is pending until that server Accepts our QuoteRequest.
import type { Deps } from "../../deps.ts";
import { publicId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import { putQuoteAuthorization, quotingIdByAuthorization } from "../../store/quotes.ts";
import { getStatus, putStatus } from "../../store/statuses.ts";
import { recordEvent } from "../events.ts";
import { countAcceptedQuote, uncountQuote } from "./attach.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { quoteApprovalFor } from "./policy.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { QuoteOfStatus, StatusRecord } from "../../model/statuses.ts";

/** The id of the QuoteAuthorization we serve for an accepted quote of a local status (Mastodon's path). */
export function localAuthorizationUri(quotedAuthor: AccountRecord, quotingId: string): string {
  return `${quotedAuthor.uri}/quote_authorizations/${publicId(quotingId)}`;
}

/**
 * The quote a remote status by `quoter` (its uri `quotingUri`) makes of `quoted`, as first stored; `authorized`
 * is whether a QuoteAuthorization from the quoted author's server was verified for it.
 */
export function incomingQuote(store: Deps["store"], quoter: AccountRecord, quoted: StatusRecord, authorized: string | null): QuoteOfStatus {
  const base = { statusId: quoted.id, accountId: quoted.accountId };
  if (quoted.local) {
    // As StatusPolicy#quote?: the policy lets the quoter and it may see the status (not blocked by its author).
    const allowed = quoteApprovalFor(store, quoter.id, quoted) === "automatic" && canSeeStatus(store, quoter.id, quoted);
    return { ...base, state: allowed ? "accepted" : "rejected" };
  }
  if (quoter.id === quoted.accountId) return { ...base, state: "accepted" };
  return authorized ? { ...base, state: "accepted", authorizationUri: authorized } : { ...base, state: "pending" };
}

/** Inside the write that inserts a remote `status`: an accepted quote counts (and notifies a local author). */
export function recordIncomingQuote(deps: Pick<Deps, "store" | "jobs">, status: StatusRecord, now: number): StatusRecord {
  const quote = status.quote;
  const quoted = quote ? getStatus(deps.store, quote.statusId) : undefined;
  if (!quote || !quoted || quote.state !== "accepted") return status;
  countAcceptedQuote(deps, status, quoted, now);
  const author = quoted.local ? getAccount(deps.store, quoted.accountId) : undefined;
  if (author) {
    const saved = { ...status, quote: { ...quote, authorizationUri: localAuthorizationUri(author, status.id) } };
    putStatus(deps.store, saved);
    return saved;
  }
  if (quote.authorizationUri) putQuoteAuthorization(deps.store, quote.authorizationUri, status.id);
  return status;
}

/**
 * A pending quote settled by the quoted author's server: accepted with its authorization (an Accept of our
 * QuoteRequest, or a verified QuoteAuthorization), or rejected. Only a pending quote moves; a second answer
 * changes nothing. Records `quote.settled` (streams re-render the status; for a local quoting status, of origin
 * local though a peer answered, so its Note goes out again with the authorization).
 */
export async function settleQuote(deps: Deps, quotingId: string, answer: { authorizationUri: string } | null): Promise<boolean> {
  const { store } = deps;
  return store.write(() => {
    const quoting = getStatus(store, quotingId);
    const quote = quoting?.quote;
    const quoted = quote ? getStatus(store, quote.statusId) : undefined;
    if (!quoting || quoting.deletedAt || !quote || quote.state !== "pending") return false;
    if (!answer || !quoted || quoted.deletedAt) {
      putStatus(store, { ...quoting, quote: { ...quote, state: "rejected" } });
    } else {
      const saved: StatusRecord = { ...quoting, quote: { ...quote, state: "accepted", authorizationUri: answer.authorizationUri } };
      putStatus(store, saved);
      putQuoteAuthorization(store, answer.authorizationUri, quoting.id);
      countAcceptedQuote(deps, saved, quoted, Date.now());
    }
    recordEvent(deps, "quote.settled", { statusId: quoting.id, quotedStatusId: quote.statusId }, quoting.local ? "local" : "remote");
    return true;
  });
}

/** A Delete of a QuoteAuthorization by the quoted author (`actorUri`): the quote it authorized is revoked. */
export async function revokeByAuthorization(deps: Deps, authorizationUri: string, actorUri: string): Promise<boolean> {
  const { store } = deps;
  return store.write(() => {
    const quotingId = quotingIdByAuthorization(store, authorizationUri);
    const quoting = quotingId ? getStatus(store, quotingId) : undefined;
    const quote = quoting?.quote;
    if (!quoting || !quote || quote.authorizationUri !== authorizationUri || quote.state !== "accepted") return false;
    if (getAccount(store, quote.accountId)?.uri !== actorUri) return false;
    uncountQuote(store, quoting);
    putStatus(store, { ...quoting, quote: { ...quote, state: "revoked" } });
    recordEvent(deps, "quote.revoked", { statusId: quoting.id, quotedStatusId: quote.statusId, accountId: quote.accountId }, "remote");
    return true;
  });
}
