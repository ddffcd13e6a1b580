// What the public HTML profile (/@username) and its RSS feed (/@username.rss) show: a local account that is
// approved and confirmed (anyone else is not there: remote accounts have their own server's page), and its
// public posts, replies to others and reblogs left out, newest first. Reads only; the pages render it.
import { movedTargetOf } from "../accounts/read.ts";
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import { findAccountByAcct } from "../../store/accounts.ts";
import { getStatus, pageAccountStatuses } from "../../store/statuses.ts";
import { pinsOf } from "../../store/statuses-interactions.ts";
import { accountVisible } from "../accounts/read.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { loadStatuses } from "../statuses/load.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import { RowBudget } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatuses } from "../statuses/loaded.ts";

/** Posts per profile page and per feed (Mastodon's feed has 20 items). */
export const PUBLIC_PAGE_SIZE = 20;

/** The local account a public page is about, by username (any case); null when there is none to show. */
export function localPublicAccount(deps: Deps, username: string): AccountRecord | null {
  const account = findAccountByAcct(deps.store, username, null);
  return account && account.domain === null && accountVisible(deps.store, account) ? account : null;
}

/** A post of the account's own profile: public, not a reblog, not a reply to someone else. */
function profilePost(deps: Deps, account: AccountRecord, status: StatusRecord): boolean {
  if (status.visibility !== "public" || status.reblogOfId) return false;
  if (status.inReplyToId && status.inReplyToAccountId !== account.id) return false;
  return canSeeStatus(deps.store, null, status);
}

export interface PublicProfile {
  account: AccountRecord;
  /** The page's cursor (normalised), null on the first page. */
  maxId: string | null;
  /** Its pinned public posts, most recently pinned first: on the first page only (none when paging). */
  pinned: LoadedStatuses;
  /** The page's posts, newest first (pinned ones are shown above instead). */
  statuses: LoadedStatuses;
  /** The `max_id` of the next page; null on the last one. */
  nextMaxId: string | null;
  /** The account it moved to (the page says so above the rest, as Mastodon's "has moved to" notice). */
  movedTo?: AccountRecord | null;
}

/** GET /@username?max_id=: null when there is no such local account. A suspended one has no posts to show. */
export function publicProfile(deps: Deps, username: string, rawMaxId: string | undefined): PublicProfile | null {
  const account = localPublicAccount(deps, username);
  if (!account) return null;
  const maxId = rawMaxId === undefined ? null : normaliseId(rawMaxId);
  const none = loadStatuses(deps, null, []);
  if (account.suspended) return { account, maxId, pinned: none, statuses: none, nextMaxId: null };
  const { store } = deps;
  const pinnedIds = new Set(pinsOf(store, account.id).map((pin) => pin.statusId));
  const pinned: StatusRecord[] = [];
  if (!maxId) {
    for (const id of pinnedIds) {
      const status = getStatus(store, id);
      if (status && status.accountId === account.id && profilePost(deps, account, status)) pinned.push(status);
    }
  }
  const budget = new RowBudget();
  const page = pageAccountStatuses(store, account.id, { limit: PUBLIC_PAGE_SIZE, maxId, budget }, (status) => {
    return !pinnedIds.has(status.id) && profilePost(deps, account, status);
  });
  const nextMaxId = page.length === PUBLIC_PAGE_SIZE ? page.at(-1)!.id : budget.stoppedAt;
  const movedTo = movedTargetOf(deps, account);
  return { account, maxId, pinned: loadStatuses(deps, null, pinned), statuses: loadStatuses(deps, null, page), nextMaxId, movedTo };
}

export interface PublicFeed {
  account: AccountRecord;
  statuses: LoadedStatuses;
}

/** GET /@username.rss: the newest public posts (none for a suspended account); null when there is no such account. */
export function publicFeed(deps: Deps, username: string): PublicFeed | null {
  const account = localPublicAccount(deps, username);
  if (!account) return null;
  const page = account.suspended
    ? []
    : pageAccountStatuses(deps.store, account.id, { limit: PUBLIC_PAGE_SIZE, budget: new RowBudget() }, (status) => profilePost(deps, account, status));
  return { account, statuses: loadStatuses(deps, null, page) };
}
