// Who may quote a status (Mastodon 4.5's quote approval policy). Local policies are automatic only: `public`
// (anyone), `followers` (the author's followers) or `nobody`; the author may always quote their own status,
// a direct status is never quotable, and a private or direct status keeps no policy (nobody).
import type { Store } from "../../store/db.ts";
import { isFollowing } from "../../store/relationships.ts";
import type { QuotePolicy, StatusRecord, Visibility } from "../../model/statuses.ts";

export const QUOTE_POLICIES = ["public", "followers", "nobody"] as const satisfies readonly QuotePolicy[];

/** How the policy applies to an account: Mastodon's `current_user` (`unknown` is for remote policies). */
export type QuoteApproval = "automatic" | "manual" | "denied" | "unknown";

/** Mastodon's downgrade: only public and unlisted statuses keep a policy. */
export function policyFor(visibility: Visibility, asked: QuotePolicy): QuotePolicy {
  return visibility === "public" || visibility === "unlisted" ? asked : "nobody";
}

/** `status` with the policy `asked` (downgraded for its visibility); `nobody` is stored as no policy. */
export function withQuotePolicy(status: StatusRecord, asked: QuotePolicy): StatusRecord {
  const { quotePolicy: _old, ...rest } = status;
  const policy = policyFor(status.visibility, asked);
  return policy === "nobody" ? rest : { ...rest, quotePolicy: policy };
}

/** The policy's accounts as Mastodon lists them (`quote_approval.automatic`; `manual` is empty here). */
export function automaticKeys(status: StatusRecord): string[] {
  const policy = status.quotePolicy ?? "nobody";
  return policy === "nobody" ? [] : [policy];
}

/** Mastodon's quote_policy_for_account: may `accountId` (null: anonymous) quote `status` (not a reblog)? */
export function quoteApprovalFor(store: Store, accountId: string | null, status: StatusRecord): QuoteApproval {
  if (accountId === null || status.visibility === "direct" || status.reblogOfId) return "denied";
  if (accountId === status.accountId) return "automatic";
  if (status.visibility === "private") return "denied";
  switch (status.quotePolicy ?? "nobody") {
    case "public":
      return "automatic";
    case "followers":
      return isFollowing(store, accountId, status.accountId) ? "automatic" : "denied";
    case "nobody":
      return "denied";
  }
}

/** An edited record with the quote fields as they are now in `current` (others' writes move them), and the
 * policy asked for with the edit, if any. */
export function withQuoteFieldsOf(edited: StatusRecord, current: StatusRecord, asked: QuotePolicy | undefined): StatusRecord {
  const { quotesCount: _count, quote: _quote, quotePolicy: _policy, ...rest } = edited;
  const { quotesCount, quote, quotePolicy } = current;
  const next: StatusRecord = {
    ...rest,
    ...(quotesCount !== undefined ? { quotesCount } : {}),
    ...(quote ? { quote } : {}),
    ...(quotePolicy ? { quotePolicy } : {}),
  };
  return asked === undefined ? next : withQuotePolicy(next, asked);
}
