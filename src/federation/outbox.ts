// A local actor's outbox and featured collection (API.md §14.1). The outbox lists what the public may see of
// the account, as GET /api/v1/accounts/:id/statuses shows it to an anonymous viewer (public and unlisted
// statuses, reblogs of such): each as its Create or Announce (notes.ts), newest first, 20 per page, `totalItems`
// the account's status count; pages are `?cursor=first`, then `?cursor=<last status id>`. `featured` holds the
// pinned statuses the public may see, as Notes, all at once (Mastodon's shape: no pages).
import type { AuthorizePredicate, Federation } from "@fedify/fedify";
import type { Announce, Create } from "@fedify/vocab";
import { accountStatuses, type AccountStatusFilters } from "../domain/statuses/lists.ts";
import { accountVisible } from "../domain/accounts/read.ts";
import { normaliseId, publicId } from "../lib/ids.ts";
import { findAccountByAcct } from "../store/accounts.ts";
import type { FederationDeps } from "./context.ts";
import { announceOf, createOf, noteOf } from "./notes.ts";
import type { AccountRecord } from "../model/accounts.ts";
import { RowBudget } from "../model/paging.ts";

const PAGE_SIZE = 20;
const FIRST = "first";
const ALL: AccountStatusFilters = { onlyMedia: false, excludeReplies: false, excludeReblogs: false, pinned: false, tagged: null };

/** The local account whose collection this is; null for unknown, hidden and deleted ones (404). */
function ownerOf(deps: FederationDeps, identifier: string): AccountRecord | null {
  const account = findAccountByAcct(deps.store, identifier, null);
  return account && accountVisible(deps.store, account) && !account.dataDeletedAt ? account : null;
}

/** Registers /users/{identifier}/outbox and /users/{identifier}/collections/featured. */
export function setStatusCollections(federation: Federation<void>, deps: FederationDeps, authorize: AuthorizePredicate<void>): void {
  federation
    .setOutboxDispatcher("/users/{identifier}/outbox", (ctx, identifier, cursor) => {
      const owner = ownerOf(deps, identifier);
      if (!owner) return null;
      if (cursor === null) return { items: [] };
      const maxId = cursor === FIRST ? null : normaliseId(cursor);
      if (cursor !== FIRST && !maxId) return null;
      const budget = new RowBudget();
      const statuses = accountStatuses(deps.store, null, owner, ALL, { limit: PAGE_SIZE, maxId, budget });
      const items = statuses
        .map((status) => (status.reblogOfId ? announceOf(ctx, deps.store, status) : createOf(ctx, deps.store, deps.config, status)))
        .filter((activity): activity is Announce | Create => activity !== null);
      const last = budget.stoppedAt ?? (statuses.length === PAGE_SIZE ? statuses.at(-1)!.id : null);
      return { items, nextCursor: last ? publicId(last) : null };
    })
    .setFirstCursor((_ctx, identifier) => (ownerOf(deps, identifier) ? FIRST : null))
    .setCounter((_ctx, identifier) => ownerOf(deps, identifier)?.statusesCount ?? null)
    .authorize(authorize);
  federation
    .setFeaturedDispatcher("/users/{identifier}/collections/featured", (ctx, identifier, cursor) => {
      const owner = ownerOf(deps, identifier);
      if (!owner || cursor !== null) return null;
      const pinned = accountStatuses(deps.store, null, owner, { ...ALL, pinned: true }, { limit: Infinity });
      return { items: pinned.map((status) => noteOf(ctx, deps.store, deps.config, status)).filter((note) => note !== null) };
    })
    .authorize(authorize);
}
