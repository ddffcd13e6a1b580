// The account lists of the social graph. Each page is paged by the relationship row's id (the cursor the
// Link header carries) and holds the accounts behind the rows.
import type { Deps } from "../../deps.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { isBlocking, isMuting } from "../../store/relationships.ts";
import {
  pageBlocks, pageFollowers, pageFollowing, pageFollowRequests, pageMutes, type GraphRow, type RowFilter,
} from "../../store/relationship-lists.ts";
import { findTargetAccount } from "./target.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";

export interface AccountEntry {
  cursor: string;
  account: AccountRecord;
  /** mutes only: when the mute ends (null = never) */
  muteExpiresAt?: number | null;
}

export interface AccountPage {
  entries: AccountEntry[];
  /** the page is as long as the limit: there may be more (Link rel="next") */
  full: boolean;
}

function toPage(store: Store, rows: (GraphRow & { mute?: { expiresAt: number | null } })[], query: PageQuery): AccountPage {
  const entries: AccountEntry[] = [];
  for (const row of rows) {
    const account = getAccount(store, row.accountId);
    if (!account) continue;
    entries.push(row.mute ? { cursor: row.cursor, account, muteExpiresAt: row.mute.expiresAt } : { cursor: row.cursor, account });
  }
  return { entries, full: rows.length > 0 && rows.length === query.limit };
}

const notSuspended = (store: Store): RowFilter => (id) => getAccount(store, id)?.suspended === false;

/** What a viewer sees of someone else's followers/following: nothing when the owner hides them, blocks
 * the viewer or is suspended; otherwise every account except those the viewer blocks, mutes or is blocked by. */
function collectionFilter(store: Store, owner: AccountRecord, viewerId: string | null): RowFilter | null {
  if (viewerId === owner.id) return notSuspended(store);
  if (owner.suspended || owner.hideCollections) return null;
  if (viewerId && isBlocking(store, owner.id, viewerId)) return null;
  const visible = notSuspended(store);
  if (!viewerId) return visible;
  return (id) =>
    visible(id) && !isBlocking(store, viewerId, id) && !isBlocking(store, id, viewerId) && !isMuting(store, viewerId, id);
}

export function followersPage(deps: Deps, viewerId: string | null, rawAccountId: string, query: PageQuery): AccountPage {
  const owner = findTargetAccount(deps.store, rawAccountId, { allowSuspended: true });
  const accept = collectionFilter(deps.store, owner, viewerId);
  if (!accept) return { entries: [], full: false };
  return toPage(deps.store, pageFollowers(deps.store, owner.id, query, accept), query);
}

export function followingPage(deps: Deps, viewerId: string | null, rawAccountId: string, query: PageQuery): AccountPage {
  const owner = findTargetAccount(deps.store, rawAccountId, { allowSuspended: true });
  const accept = collectionFilter(deps.store, owner, viewerId);
  if (!accept) return { entries: [], full: false };
  return toPage(deps.store, pageFollowing(deps.store, owner.id, query, accept), query);
}

export function followRequestsPage(deps: Deps, viewerId: string, query: PageQuery): AccountPage {
  return toPage(deps.store, pageFollowRequests(deps.store, viewerId, query, notSuspended(deps.store)), query);
}

export function blocksPage(deps: Deps, viewerId: string, query: PageQuery): AccountPage {
  return toPage(deps.store, pageBlocks(deps.store, viewerId, query), query);
}

export function mutesPage(deps: Deps, viewerId: string, query: PageQuery): AccountPage {
  return toPage(deps.store, pageMutes(deps.store, viewerId, query), query);
}
