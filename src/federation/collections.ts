// The followers and following collections of local actors (API.md §14.1): an OrderedCollection with
// `totalItems` (the stored count) and a `first` page; pages of 40 actor URIs, newest first, each with `next`
// while more may follow. The cursor is the last relationship row read (Mastodon pages its lists by row id).
// An account that hides its collections (or is suspended) shows only the count: no `first`, no pages. Who is
// listed follows the API's public view (domain/relationships/lists.ts): suspended accounts are left out.
// Followers are Fedify recipients: remote ones with their inbox and shared inbox, local ones without an inbox
// (they get statuses by fan-out, never by delivery). `sendActivity(…, "followers")` asks the dispatcher for
// the whole collection at once (no cursor, not an HTTP GET): it gets every remote follower, hidden or not.
import type { AuthorizePredicate, Context, Federation } from "@fedify/fedify";
import type { Recipient } from "@fedify/vocab";
import type { Deps } from "../deps.ts";
import { followersPage, followingPage, type AccountPage } from "../domain/relationships/lists.ts";
import { accountVisible } from "../domain/accounts/read.ts";
import { normaliseId, publicId } from "../lib/ids.ts";
import { findAccountByAcct } from "../store/accounts.ts";
import type { FederationDeps } from "./context.ts";
import { recipientOf, remoteFollowers } from "./recipients.ts";
import { isGetOf } from "./authorized-fetch.ts";
import type { AccountRecord } from "../model/accounts.ts";
import { type PageQuery, RowBudget } from "../model/paging.ts";

const PAGE_SIZE = 40;
/** The cursor of the first page (the newest rows); later cursors are row ids. */
const FIRST = "first";

type Lister = (deps: Deps, viewerId: string | null, accountId: string, query: PageQuery) => AccountPage;

/** The local account whose collection this is; null for unknown, hidden and deleted ones (404). */
function ownerOf(deps: FederationDeps, identifier: string): AccountRecord | null {
  const account = findAccountByAcct(deps.store, identifier, null);
  return account && accountVisible(deps.store, account) && !account.dataDeletedAt ? account : null;
}

const listed = (owner: AccountRecord) => !owner.hideCollections && !owner.suspended;

/** One page: the accounts and the cursor of the next page (null at the end); null for a cursor that is none. */
function pageOf(deps: FederationDeps, list: Lister, owner: AccountRecord, cursor: string) {
  const maxId = cursor === FIRST ? null : normaliseId(cursor);
  if (cursor !== FIRST && !maxId) return null;
  const budget = new RowBudget();
  // The lists take Deps but read only the store.
  const page = list(deps, null, owner.id, { limit: PAGE_SIZE, maxId, budget });
  const last = budget.stoppedAt ?? (page.full ? page.entries.at(-1)?.cursor : null);
  return { accounts: page.entries.map((entry) => entry.account), nextCursor: last ? publicId(last) : null };
}

/** Whether `account` lives at `filter`'s origin (FEP-8fcf collection synchronisation asks for one server's). */
function atOrigin(ctx: Context<void>, account: AccountRecord, filter: URL | undefined): boolean {
  if (!filter) return true;
  const uri = account.domain === null ? ctx.getActorUri(account.username) : new URL(account.uri);
  return uri.origin === filter.origin;
}

function follower(ctx: Context<void>, account: AccountRecord): Recipient {
  if (account.domain === null) return { id: ctx.getActorUri(account.username), inboxId: null, endpoints: null };
  return recipientOf(account);
}

function followee(ctx: Context<void>, account: AccountRecord): URL {
  return account.domain === null ? ctx.getActorUri(account.username) : new URL(account.uri);
}

/** Registers /users/{identifier}/followers and /following, each authorised by `authorize`. */
export function setFollowCollections(federation: Federation<void>, deps: FederationDeps, authorize: AuthorizePredicate<void>): void {
  const firstCursor = (_ctx: unknown, identifier: string) => {
    const owner = ownerOf(deps, identifier);
    return owner && listed(owner) ? FIRST : null;
  };
  federation
    .setFollowersDispatcher("/users/{identifier}/followers", (ctx, identifier, cursor, filter) => {
      const owner = ownerOf(deps, identifier);
      if (!owner) return null;
      if (cursor === null && !isGetOf(ctx, ctx.getFollowersUri(identifier))) {
        // Fedify enumerating the recipients of a delivery to "followers".
        const remote = remoteFollowers(deps.store, owner.id).filter((account) => atOrigin(ctx, account, filter));
        return { items: remote.map(recipientOf) };
      }
      // The collection itself (its pages are at `first`), or hidden: no items.
      if (cursor === null || !listed(owner)) return cursor === null ? { items: [] } : null;
      const page = pageOf(deps, followersPage, owner, cursor);
      if (!page) return null;
      const items = page.accounts.filter((account) => atOrigin(ctx, account, filter)).map((account) => follower(ctx, account));
      return { items, nextCursor: page.nextCursor };
    })
    .setFirstCursor(firstCursor)
    .setCounter((_ctx, identifier) => ownerOf(deps, identifier)?.followersCount ?? null)
    .authorize(authorize);
  federation
    .setFollowingDispatcher("/users/{identifier}/following", (ctx, identifier, cursor) => {
      const owner = ownerOf(deps, identifier);
      if (!owner) return null;
      if (cursor === null || !listed(owner)) return cursor === null ? { items: [] } : null;
      const page = pageOf(deps, followingPage, owner, cursor);
      if (!page) return null;
      return { items: page.accounts.map((account) => followee(ctx, account)), nextCursor: page.nextCursor };
    })
    .setFirstCursor(firstCursor)
    .setCounter((_ctx, identifier) => ownerOf(deps, identifier)?.followingCount ?? null)
    .authorize(authorize);
}
