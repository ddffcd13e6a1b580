// Local statuses served to ActivityPub GETs (API.md §14.1): `/users/{u}/statuses/{id}` is the Note (notes.ts),
// `/users/{u}/statuses/{id}/activity` its Create, or the Announce of a reblog. Who may read what is the API's
// rule (domain/policy/visibility.ts) with the signer as viewer: public and unlisted to anyone (to signed GETs
// only under WARREN_AUTHORIZED_FETCH, as collections), private and direct only to a signed GET whose key owner
// is in the audience (a follower or a mentioned account for private, a mentioned account for direct). Anyone
// else gets 404, as for a status that does not exist: a refusal must not tell that it does. Deleted statuses,
// remote ones and statuses of another account than the path's are 404.
// Our QuoteAuthorizations (FEP-044f, quotes.ts) are served here too, while the quote they allow stands.
import type { Federation, RequestContext } from "@fedify/fedify";
import { Activity, Object as APObject, QuoteAuthorization } from "@fedify/vocab";
import { canSeeStatus } from "../domain/policy/visibility.ts";
import { localAuthorizationUri } from "../domain/quotes/remote.ts";
import { normaliseId } from "../lib/ids.ts";
import { findAccountByAcct, findAccountByUri } from "../store/accounts.ts";
import { getStatus } from "../store/statuses.ts";
import type { FederationDeps } from "./context.ts";
import { refuse, refusalOf, signerOf } from "./authorized-fetch.ts";
import { announceOf, createOf, localAuthorOf, noteOf } from "./notes.ts";
import type { StatusRecord } from "../model/statuses.ts";

type StatusPath = { identifier: string; id: string };

/** The live local status a path names, owned by the path's account; null otherwise. */
function statusAt(deps: FederationDeps, values: StatusPath): StatusRecord | null {
  const id = normaliseId(values.id);
  const status = id ? getStatus(deps.store, id) : undefined;
  if (!status || !status.local || status.deletedAt) return null;
  const owner = findAccountByAcct(deps.store, values.identifier, null);
  return owner && owner.id === status.accountId && !owner.suspended ? status : null;
}

/** Whether the request may read the status at `values` (see the header). */
async function mayRead(deps: FederationDeps, ctx: RequestContext<void>, values: StatusPath): Promise<boolean> {
  const status = statusAt(deps, values);
  if (!status) return refuse(ctx, 404);
  const open = canSeeStatus(deps.store, null, status);
  if (open && !deps.config.authorizedFetch) return true;
  const signer = await signerOf(ctx);
  if (!signer) return refuse(ctx, open ? 401 : 404);
  const owner = findAccountByAcct(deps.store, values.identifier, null) ?? null;
  const refusal = refusalOf(deps, owner, signer);
  if (refusal) return refuse(ctx, open ? refusal : 404);
  if (open) return true;
  const viewer = findAccountByUri(deps.store, signer.href);
  return viewer && canSeeStatus(deps.store, viewer.id, status) ? true : refuse(ctx, 404);
}

export function setStatusObjects(federation: Federation<void>, deps: FederationDeps): void {
  federation
    // A Note, or a Question for a status with a poll.
    .setObjectDispatcher(APObject, "/users/{identifier}/statuses/{id}", (ctx, values) => {
      const status = statusAt(deps, values);
      return status ? noteOf(ctx, deps.store, deps.config, status) : null;
    })
    .authorize((ctx, values) => mayRead(deps, ctx, values));
  federation
    .setObjectDispatcher(Activity, "/users/{identifier}/statuses/{id}/activity", (ctx, values) => {
      const status = statusAt(deps, values);
      if (!status) return null;
      return status.reblogOfId ? announceOf(ctx, deps.store, status) : createOf(ctx, deps.store, deps.config, status);
    })
    .authorize((ctx, values) => mayRead(deps, ctx, values));
}

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
