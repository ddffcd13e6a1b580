// A quote as a viewer sees it (Mastodon's REST::BaseQuoteSerializer with StatusFilter#filter_state_for_quote):
// the stored state unless accepted; an accepted quote of a status gone is `deleted`, of one the viewer may not
// see `unauthorized` (without the status: a quote never reveals what its viewer may not see), of an author the
// viewer blocks, whose domain it blocks, or whom it mutes `blocked_account` / `blocked_domain` / `muted_account`
// (with the status, which clients hide behind a click).
import type { Store } from "../../store/db.ts";
import { isBlocking, isMuting } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { blocksDomainOf } from "../../store/user-domain-blocks.ts";
import { cachedAccount } from "../accounts/read.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import type { ShownQuoteState } from "../statuses/loaded.ts";
import type { QuoteOfStatus, StatusRecord } from "../../model/statuses.ts";

export function shownQuote(store: Store, viewerId: string | null, quote: QuoteOfStatus): { state: ShownQuoteState; quoted: StatusRecord | null } {
  if (quote.state !== "accepted") return { state: quote.state, quoted: null };
  const quoted = getStatus(store, quote.statusId);
  if (!quoted || quoted.deletedAt) return { state: "deleted", quoted: null };
  if (viewerId === quoted.accountId) return { state: "accepted", quoted };
  if (!canSeeStatus(store, viewerId, quoted)) return { state: "unauthorized", quoted: null };
  if (viewerId && isBlocking(store, viewerId, quoted.accountId)) return { state: "blocked_account", quoted };
  if (viewerId && blocksDomainOf(store, viewerId, cachedAccount(store, quoted.accountId))) return { state: "blocked_domain", quoted };
  if (viewerId && isMuting(store, viewerId, quoted.accountId)) return { state: "muted_account", quoted };
  return { state: "accepted", quoted };
}
