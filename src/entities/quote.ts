// Quote and ShallowQuote (Mastodon 4.5) and a status's quote_approval, rendered from what the status loader
// read (domain/quotes/shown.ts). The quoted Status itself is rendered by entities/status.ts.
import { t, type TSchema } from "elysia";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { LoadedQuote, LoadedQuoteApproval } from "../domain/statuses/loaded.ts";

const QuoteStateSchema = t.String({
  description:
    "pending, accepted, rejected, revoked, deleted, unauthorized, blocked_account, blocked_domain or muted_account; quoted_status only when accepted (or blocked/muted)",
});

/** A quote inside a quoted status: the id only. */
export const ShallowQuoteSchema = t.Object({ state: QuoteStateSchema, quoted_status_id: Nullable(t.String()) }, { description: "Mastodon ShallowQuote" });

export const quoteSchema = <S extends TSchema>(quotedStatus: S) =>
  t.Object({ state: QuoteStateSchema, quoted_status: Nullable(quotedStatus) }, { description: "Mastodon Quote" });

export const QuoteApprovalSchema = t.Object({
  automatic: t.Array(t.String(), { description: "public or followers: who may quote without asking" }),
  manual: t.Array(t.String(), { description: "Who may ask (always empty for local statuses)" }),
  current_user: t.String({ description: "automatic, manual, denied or unknown" }),
});

/** The Quote of a status (or its ShallowQuote inside a quoted status); `render` presents the quoted status. */
export function presentQuote(quote: LoadedQuote, render: (quoted: NonNullable<LoadedQuote["status"]>) => unknown): unknown {
  if (quote.shallow) return { state: quote.state, quoted_status_id: quote.quotedId ? publicId(quote.quotedId) : null };
  return { state: quote.state, quoted_status: quote.status ? render(quote.status) : null };
}

export function presentQuoteApproval(approval: LoadedQuoteApproval) {
  return { automatic: approval.automatic, manual: [] as string[], current_user: approval.currentUser };
}
