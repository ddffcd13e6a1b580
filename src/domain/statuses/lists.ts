// Paged lists of statuses and of accounts around a status: an account's statuses, the viewer's favourites
// and bookmarks, favourited_by and reblogged_by. Join-table lists page by their row ids (API.md §1.5), so
// they return the rows' cursor ids beside the records.
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getStatus, pageAccountStatuses, pageRebloggers } from "../../store/statuses.ts";
import { pageBookmarks, pageFavourites, pageFavouriters, pinsOf } from "../../store/statuses-interactions.ts";
import { isBlocking } from "../../store/relationships.ts";
import { canSeeStatus, hiddenByViewer } from "../policy/visibility.ts";
import { statusHider } from "../filters/match.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export interface AccountStatusFilters {
  onlyMedia: boolean;
  excludeReplies: boolean;
  excludeReblogs: boolean;
  pinned: boolean;
  tagged: string | null;
}

/**
 * GET /api/v1/accounts/:id/statuses: newest first; what the viewer may see, narrowed by the filters, minus
 * what the viewer's hide filters of the account context remove.
 */
export function accountStatuses(
  store: Store,
  viewerId: string | null,
  account: AccountRecord,
  filters: AccountStatusFilters,
  page: PageQuery,
): StatusRecord[] {
  if (account.suspended) return [];
  if (viewerId && viewerId !== account.id && isBlocking(store, account.id, viewerId)) return [];
  const tag = filters.tagged?.replace(/^#/, "").toLowerCase() ?? null;
  const hides = statusHider(store, viewerId, "account");
  const accept = (status: StatusRecord): boolean => {
    if (status.reblogOfId) {
      if (filters.excludeReblogs || filters.onlyMedia || tag) return false;
      const original = getStatus(store, status.reblogOfId);
      if (!original || hiddenByViewer(store, viewerId, original)) return false;
    }
    if (filters.excludeReplies && status.inReplyToId && status.inReplyToAccountId !== account.id) return false;
    if (filters.onlyMedia && status.mediaIds.length === 0) return false;
    if (tag && !status.tags.includes(tag)) return false;
    return canSeeStatus(store, viewerId, status) && !hides?.(status);
  };
  if (!filters.pinned) return pageAccountStatuses(store, account.id, page, accept);
  return pinnedStatuses(store, account.id, page, accept);
}

/** Pinned statuses, most recently pinned first; the cursors are status ids as on Mastodon. */
function pinnedStatuses(store: Store, accountId: string, page: PageQuery, accept: (s: StatusRecord) => boolean): StatusRecord[] {
  const out: StatusRecord[] = [];
  for (const pin of pinsOf(store, accountId)) {
    if (page.maxId && pin.statusId >= page.maxId) continue;
    if (page.sinceId && pin.statusId <= page.sinceId) continue;
    if (page.minId && pin.statusId <= page.minId) continue;
    const status = getStatus(store, pin.statusId);
    if (status && accept(status)) out.push(status);
    if (out.length >= page.limit) break;
  }
  return out;
}

export interface Paged<T> {
  items: T[];
  /** cursor ids of the rows, aligned with items */
  cursors: string[];
}

function visibleListed(store: Store, viewerId: string, statusId: string): boolean {
  const status = getStatus(store, statusId);
  return !!status && canSeeStatus(store, viewerId, status);
}

/** GET /api/v1/favourites: paged by favourite id. */
export function favouritedStatuses(store: Store, viewerId: string, page: PageQuery): Paged<StatusRecord> {
  const rows = pageFavourites(store, viewerId, page, (statusId) => visibleListed(store, viewerId, statusId));
  return { items: rows.map((r) => getStatus(store, r.statusId)!), cursors: rows.map((r) => r.id) };
}

/** GET /api/v1/bookmarks: paged by bookmark id. */
export function bookmarkedStatuses(store: Store, viewerId: string, page: PageQuery): Paged<StatusRecord> {
  const rows = pageBookmarks(store, viewerId, page, (statusId) => visibleListed(store, viewerId, statusId));
  return { items: rows.map((r) => getStatus(store, r.statusId)!), cursors: rows.map((r) => r.id) };
}

function listedAccount(store: Store, accountId: string): AccountRecord | undefined {
  const account = getAccount(store, accountId);
  return account && !account.suspended ? account : undefined;
}

/** GET /api/v1/statuses/:id/favourited_by: paged by favourite id. */
export function favouritedBy(store: Store, statusId: string, page: PageQuery): Paged<AccountRecord> {
  const rows = pageFavouriters(store, statusId, page, (accountId) => !!listedAccount(store, accountId));
  return { items: rows.map((r) => getAccount(store, r.accountId)!), cursors: rows.map((r) => r.id) };
}

/** GET /api/v1/statuses/:id/reblogged_by: paged by the reblog's id; boosts the viewer may not see are left out. */
export function rebloggedBy(store: Store, viewerId: string | null, statusId: string, page: PageQuery): Paged<AccountRecord> {
  const rows = pageRebloggers(store, statusId, page, (row) => {
    const wrapper = getStatus(store, row.reblogId);
    return !!wrapper && !!listedAccount(store, row.accountId) && canSeeStatus(store, viewerId, wrapper);
  });
  return { items: rows.map((r) => getAccount(store, r.accountId)!), cursors: rows.map((r) => r.reblogId) };
}
