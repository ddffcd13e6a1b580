// Quoting, as Mastodon 4.5's PostStatusService does for a local status: the quoted status must be one the
// quoter may see and may quote (StatusPolicy#quote?), else the same 404 Mastodon gives; a local quote is
// accepted at once. The quoted author may then see the quote (Mastodon's silent mention, policy/visibility.ts)
// and is notified (`quote`). Counters move in the write that adds or removes the row they count.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { linkHtml } from "../../lib/html.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { countQuoteRows, putQuoteRow, removeQuoteRow, removeQuoteRowsOf } from "../../store/quotes.ts";
import { getStatus, putStatus } from "../../store/statuses.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { quoteApprovalFor } from "./policy.ts";
import type { StatusRecord, Visibility } from "../../model/statuses.ts";

export const QUOTED_NOT_FOUND = "The post you are trying to quote does not appear to exist.";

/**
 * The status `quoterId` asks to quote (a reblog stands for what it wraps); 404 unless they may quote it. A
 * status from another server is quotable when its interactionPolicy (as received) lets the quoter; the quote
 * then waits (`pending`) for its author's server to answer the QuoteRequest (src/federation/quotes.ts).
 */
export function quotableStatus(store: Store, quoterId: string, rawId: string): StatusRecord {
  const id = normaliseId(rawId);
  const status = id ? getStatus(store, id) : undefined;
  const quotable = status ? stillQuotable(store, quoterId, status.reblogOfId ?? status.id) : null;
  if (!quotable) throw new NotFound(QUOTED_NOT_FOUND);
  return quotable;
}

/** The status `statusId` if `quoterId` may quote it (checked again when the quote is written, or published). */
export function stillQuotable(store: Store, quoterId: string, statusId: string): StatusRecord | null {
  const status = getStatus(store, statusId);
  return status && !status.deletedAt && canSeeStatus(store, quoterId, status) && quoteApprovalFor(store, quoterId, status) !== "denied" ? status : null;
}

/** The state a new local quote starts in: a local status's policy decides at once; another server answers. */
export const newQuoteState = (quoted: StatusRecord): "accepted" | "pending" => (quoted.local ? "accepted" : "pending");

/**
 * Mastodon's fallback for clients without quote posts: `RE: <link>` to the quoted status before the text,
 * unless the text links it already (clients that show quotes hide `.quote-inline`).
 */
export function withQuoteFallback(html: string, text: string, quoted: StatusRecord): string {
  const url = quoted.url ?? quoted.uri;
  if (text.includes(url) || text.includes(quoted.uri)) return html;
  return `<p class="quote-inline">RE: ${linkHtml(url)}</p>${html}`;
}

/** Quoting a private status (only its author may) makes a public or unlisted quote private, as on Mastodon. */
export function quotingVisibility(visibility: Visibility, quoted: StatusRecord): Visibility {
  return quoted.visibility === "private" && (visibility === "public" || visibility === "unlisted") ? "private" : visibility;
}

/** A direct quote of someone else's status must mention its author (Mastodon's safeguard_private_mention_quote!). */
export function checkDirectQuote(visibility: Visibility, authorId: string, mentionIds: readonly string[], quoted: StatusRecord): void {
  if (visibility !== "direct" || quoted.accountId === authorId || mentionIds.includes(quoted.accountId)) return;
  throw new Unprocessable("Validation failed: Cannot quote a non-mentioned user in a Private mention post.");
}

/** Inside the write that inserts `status` (which carries its accepted quote): the row, the count, the notification. */
export function recordQuote(deps: Pick<Deps, "store" | "jobs">, status: StatusRecord, now: number): void {
  const { store } = deps;
  const quote = status.quote;
  if (!quote) return;
  const quoted = stillQuotable(store, status.accountId, quote.statusId);
  // Deleted (or no longer quotable) since the draft was checked: the post is refused as it would have been.
  if (!quoted) throw new NotFound(QUOTED_NOT_FOUND);
  if (quote.state === "accepted") countAcceptedQuote(deps, status, quoted, now);
}

/** Inside a write: an accepted quote's row, count and (to a local quoted author who may see it) notification. */
export function countAcceptedQuote(deps: Pick<Deps, "store" | "jobs">, status: StatusRecord, quoted: StatusRecord, now: number): void {
  const { store } = deps;
  putQuoteRow(store, quoted.id, { statusId: status.id, accountId: status.accountId });
  adjustQuotesCount(store, quoted.id, 1);
  if (quoted.local && canSeeStatus(store, quoted.accountId, status)) {
    notify(deps, { type: "quote", recipientId: quoted.accountId, fromAccountId: status.accountId, statusId: status.id }, now);
  }
}

/** Inside a write: a quote stops counting (revoked, or its quoting status deleted); true when it counted. */
export function uncountQuote(store: Store, quoting: StatusRecord): boolean {
  const quote = quoting.quote;
  if (!quote || !removeQuoteRow(store, quote.statusId, quoting.id)) return false;
  adjustQuotesCount(store, quote.statusId, -1);
  return true;
}

function adjustQuotesCount(store: Store, statusId: string, delta: number): void {
  const status = getStatus(store, statusId);
  if (status) putStatus(store, { ...status, quotesCount: Math.max(0, (status.quotesCount ?? 0) + delta) });
}

/** status.deleted's `quotes.removal`: a deleted status's list of quotes goes (its quotes now show `deleted`). */
export async function forgetQuotesOf(store: Store, statusId: string): Promise<void> {
  await store.write(() => removeQuoteRowsOf(store, statusId));
}

/** `warren cache recount statuses`: quotesCount as its rows count it (left absent on a never-quoted status). */
export function countedQuotes(store: Store, status: StatusRecord): { quotesCount?: number } {
  const quotesCount = countQuoteRows(store, status.id);
  return quotesCount > 0 || status.quotesCount !== undefined ? { quotesCount } : {};
}
