// Quotes coming in (FEP-044f, as Mastodon 4.5; docs/federation.md "Quotes"; the rules are in
// domain/quotes/remote.ts): what a remote Note quotes and who may quote it. A local quoted status decides by its
// policy; a remote one needs a QuoteAuthorization fetched from its author's server and naming both statuses.
// The inbox listeners for quote activities are in quote-inbox.ts; what goes out is in quotes.ts.
import type { Context } from "@fedify/fedify";
import { QuoteAuthorization } from "@fedify/vocab";
import { getAccount } from "../store/accounts.ts";
import { incomingQuote } from "../domain/quotes/remote.ts";
import { statusByUri } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./context.ts";
import { isPublic, NOTE_LIMITS, sameOrigin, type NoteLike } from "./note-checks.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { QuoteOfStatus, QuotePolicy, StatusRecord } from "../model/statuses.ts";

/** How an unknown quoted status is fetched (threads.ts's fetchStatus, given by the inbox: threads.ts reads
 * Notes with note-draft.ts, which reads their quotes here). */
export type QuotedFetcher = (uri: URL) => Promise<StatusRecord | null>;

/** Who may quote a remote status, from its `interactionPolicy.canQuote.automaticApproval`. */
export function readQuotePolicy(note: NoteLike, author: AccountRecord): QuotePolicy | undefined {
  const approvals = note.interactionPolicy?.canQuote?.automaticApprovals ?? [];
  if (approvals.some(isPublic)) return "public";
  if (author.followersUrl && approvals.some((url) => url.href === author.followersUrl)) return "followers";
  return undefined;
}

/** What a remote Note by `author` quotes, in the state it starts in; null when it quotes nothing we can find.
 * An unknown quoted status is fetched only with `fetchQuoted` (from an inbox, not while fetching a thread). */
export async function readQuote(deps: FederationDeps, ctx: Context<void>, note: NoteLike, author: AccountRecord, fetchQuoted: QuotedFetcher | null): Promise<QuoteOfStatus | null> {
  const uri = note.quoteId ?? note.quoteUrl;
  if (!uri || !note.id || uri.href.length > NOTE_LIMITS.uri || (uri.protocol !== "https:" && uri.protocol !== "http:")) return null;
  let quoted = statusByUri(deps, uri.href) ?? null;
  if (!quoted && fetchQuoted && !sameOrigin(uri, deps.config.url)) {
    quoted = await fetchQuoted(uri).catch(() => null);
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
