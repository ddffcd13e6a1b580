// Quotes of a status (Mastodon 4.6's Api::V1::Statuses::QuotesController and InteractionPoliciesController):
// anyone who may see the status lists its accepted quotes; its author revokes one or changes who may quote.
// Each needs the status to be visible (404); revoking and the policy need it to be the viewer's own (403, as
// QuotePolicy#revoke? and StatusPolicy#update? say).
import type { Deps } from "../../deps.ts";
import { Forbidden, NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { pageQuoteRows } from "../../store/quotes.ts";
import { getStatus, putStatus } from "../../store/statuses.ts";
import { recordEvent } from "../events.ts";
import { canSeeStatus, hiddenByViewer } from "../policy/visibility.ts";
import { visibleStatus } from "../statuses/read.ts";
import { uncountQuote } from "./attach.ts";
import { withQuotePolicy } from "./policy.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { QuotePolicy, StatusRecord } from "../../model/statuses.ts";

/** The viewer's own status behind `rawId` (a reblog stands for what it wraps): 404 unseen, 403 someone else's. */
function ownStatus(store: Store, viewerId: string, rawId: string): StatusRecord {
  let status = visibleStatus(store, viewerId, rawId);
  if (status.reblogOfId) status = getStatus(store, status.reblogOfId) ?? status;
  if (status.accountId !== viewerId) throw new Forbidden();
  return status;
}

/** The status behind `rawId` as the viewer may see it (a reblog stands for what it wraps): 404 unseen. */
function seenStatus(store: Store, viewerId: string, rawId: string): StatusRecord {
  const status = visibleStatus(store, viewerId, rawId);
  const wrapped = status.reblogOfId ? getStatus(store, status.reblogOfId) : undefined;
  return wrapped && canSeeStatus(store, viewerId, wrapped) ? wrapped : status;
}

/** GET /api/v1/statuses/:id/quotes: for anyone who may see the status (Mastodon 4.6 asks no more), the accepted
 * quotes the viewer may see, newest quote first; as on Mastodon, not those by accounts the viewer blocks or mutes. */
export function quotesOf(store: Store, viewerId: string, rawId: string, page: PageQuery): StatusRecord[] {
  const quoted = seenStatus(store, viewerId, rawId);
  const rows = pageQuoteRows(store, quoted.id, page, (row) => {
    const quoting = getStatus(store, row.statusId);
    return !!quoting && quoting.quote?.statusId === quoted.id && canSeeStatus(store, viewerId, quoting) && !hiddenByViewer(store, viewerId, quoting);
  });
  return rows.map((row) => getStatus(store, row.statusId)!);
}

/**
 * POST /api/v1/statuses/:id/quotes/:quoting_id/revoke: the quote is `revoked` (a pending one `rejected`) and
 * stops counting; the answer is the quoting status. 404 when that status does not quote this one or the viewer
 * may not see it.
 */
export async function revokeQuote(deps: Deps, viewerId: string, rawId: string, rawQuotingId: string): Promise<StatusRecord> {
  const { store } = deps;
  const quoted = ownStatus(store, viewerId, rawId);
  const quotingId = normaliseId(rawQuotingId);
  return store.write(() => {
    const quoting = quotingId ? getStatus(store, quotingId) : undefined;
    const quote = quoting?.quote;
    // A quote the viewer may not see (its author blocks them) is not revealed by revoking it either.
    if (!quoting || !quote || quote.statusId !== quoted.id || !canSeeStatus(store, viewerId, quoting)) throw new NotFound();
    if (quote.state === "revoked" || quote.state === "rejected") return quoting;
    const state = quote.state === "accepted" ? "revoked" : "rejected";
    uncountQuote(store, quoting);
    const revoked: StatusRecord = { ...quoting, quote: { ...quote, state } };
    putStatus(store, revoked);
    recordEvent(deps, "quote.revoked", { statusId: quoting.id, quotedStatusId: quoted.id, accountId: viewerId });
    return revoked;
  });
}

/** PUT /api/v1/statuses/:id/interaction_policy: a private or direct status keeps `nobody`, as on Mastodon. */
export async function setQuotePolicy(deps: Deps, viewerId: string, rawId: string, asked: QuotePolicy): Promise<StatusRecord> {
  const { store } = deps;
  const own = ownStatus(store, viewerId, rawId);
  return store.write(() => {
    const status = getStatus(store, own.id);
    if (!status || status.deletedAt) throw new NotFound();
    const next = withQuotePolicy(status, asked);
    if (next.quotePolicy === status.quotePolicy) return status;
    putStatus(store, next);
    recordEvent(deps, "status.quote_policy_changed", { statusId: status.id, accountId: viewerId });
    return next;
  });
}
