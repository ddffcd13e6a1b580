// Pages of the social graph, newest first. The cursor of each row is the id of the relationship row (the
// follow, request, block or mute), not of the account, as on Mastodon (API.md §1.5).
import type { Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { MuteRecord } from "../model/relationships.ts";

export interface GraphRow {
  /** id of the follow / request / block / mute: the paging cursor */
  cursor: string;
  accountId: string;
}

/** Keeps a row out of the page without counting it against the limit. */
export type RowFilter = (accountId: string) => boolean;

function page(keyspace: Parameters<typeof scanPage>[0], owner: string, query: PageQuery, accept: RowFilter): GraphRow[] {
  return scanPage<string>(keyspace, [owner], query, (row) => accept(row.value)).map((row) => ({
    cursor: row.key[1] as string,
    accountId: row.value,
  }));
}

const all: RowFilter = () => true;

/** Accounts following `targetId`, by follow id. */
export function pageFollowers(store: Store, targetId: string, query: PageQuery, accept = all): GraphRow[] {
  return page(store.db.followersIndex, targetId, query, accept);
}

/** Accounts `accountId` follows, by follow id. */
export function pageFollowing(store: Store, accountId: string, query: PageQuery, accept = all): GraphRow[] {
  return page(store.db.followingIndex, accountId, query, accept);
}

/** Accounts waiting for `targetId` to answer their follow request, by request id. */
export function pageFollowRequests(store: Store, targetId: string, query: PageQuery, accept = all): GraphRow[] {
  return page(store.db.followRequestsIndex, targetId, query, accept);
}

/** Accounts `blockerId` blocks, by block id. */
export function pageBlocks(store: Store, blockerId: string, query: PageQuery, accept = all): GraphRow[] {
  return page(store.db.blocksIndex, blockerId, query, accept);
}

export interface MuteRow extends GraphRow {
  mute: MuteRecord;
}

/** Accounts `muterId` mutes, by mute id; expired mutes are left out. */
export function pageMutes(store: Store, muterId: string, query: PageQuery, accept = all, now = Date.now()): MuteRow[] {
  const rows: MuteRow[] = [];
  const live = (accountId: string) => {
    const mute: MuteRecord | undefined = store.db.mutes.get([muterId, accountId]);
    return mute !== undefined && (mute.expiresAt === null || mute.expiresAt > now) && accept(accountId);
  };
  for (const row of page(store.db.mutesIndex, muterId, query, live)) {
    rows.push({ ...row, mute: store.db.mutes.get([muterId, row.accountId]) as MuteRecord });
  }
  return rows;
}
