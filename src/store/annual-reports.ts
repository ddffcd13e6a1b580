// Annual reports ("Wrapstodon", docs/annual-reports.md): one report per account and year, the generations asked
// for and not finished yet, and the bounded range reads the computation is made of. Two families share the
// `annual_reports` keyspace, told apart by the key's first element:
//   ["r", accountId, year] → AnnualReportRecord
//   ["g", accountId, year] → AnnualReportGeneration (a generation asked for; removed with the report's write)
// The computation's reads walk existing indexes by id range (ids are times): an account's statuses
// (`statuses_by_account`), its favourites (`favourites`), its follows both ways (`followers_index`,
// `following_index`), in batches whose size the caller chooses.
import { END, type Store } from "./handle.ts";
import type { AnnualReportGeneration, AnnualReportRecord } from "../model/instance.ts";

const REPORT = "r";
const GENERATION = "g";

export function getAnnualReport(store: Store, accountId: string, year: number): AnnualReportRecord | undefined {
  return store.db.annualReports.get([REPORT, accountId, year]);
}

/** The account's reports, oldest year first. */
export function annualReportsOf(store: Store, accountId: string): AnnualReportRecord[] {
  const out: AnnualReportRecord[] = [];
  for (const { value } of store.db.annualReports.getRange({ start: [REPORT, accountId], end: [REPORT, accountId, END] })) {
    out.push(value as AnnualReportRecord);
  }
  return out;
}

/** Inside a write. */
export function putAnnualReport(store: Store, report: AnnualReportRecord): void {
  store.db.annualReports.put([REPORT, report.accountId, report.year], report);
}

export function getGeneration(store: Store, accountId: string, year: number): AnnualReportGeneration | undefined {
  return store.db.annualReports.get([GENERATION, accountId, year]);
}

/** Inside a write. */
export function putGeneration(store: Store, accountId: string, year: number, generation: AnnualReportGeneration): void {
  store.db.annualReports.put([GENERATION, accountId, year], generation);
}

/** Inside a write. */
export function removeGeneration(store: Store, accountId: string, year: number): void {
  store.db.annualReports.remove([GENERATION, accountId, year]);
}

/** Inside a write: every report and generation of the account (its data being removed). Returns how many. */
export function removeAnnualReportsOf(store: Store, accountId: string): number {
  let removed = 0;
  for (const family of [REPORT, GENERATION]) {
    for (const key of store.db.annualReports.getKeys({ start: [family, accountId], end: [family, accountId, END] })) {
      store.db.annualReports.remove(key);
      removed++;
    }
  }
  return removed;
}

/** An id range [fromId, toId): the ids of a time span (lib/ids.ts idAtTime). */
export interface IdRange {
  fromId: string;
  toId: string;
}

/** Up to `limit` ids of the account's statuses and reblogs in the range, oldest first, after `afterId` (exclusive). */
export function accountStatusIdsIn(store: Store, accountId: string, range: IdRange, afterId: string | null, limit: number): string[] {
  const out: string[] = [];
  const start = afterId === null ? [accountId, range.fromId] : [accountId, afterId];
  for (const key of store.db.statusesByAccount.getKeys({ start, end: [accountId, range.toId] })) {
    const id = (key as string[])[1]!;
    if (id === afterId) continue;
    out.push(id);
    if (out.length >= limit) break;
  }
  return out;
}

export interface FavouriteRow {
  favouriteId: string;
  statusId: string;
}

/** Up to `limit` of the account's favourite rows in the range (live or awaiting clean-up), oldest first. */
export function accountFavouritesIn(store: Store, accountId: string, range: IdRange, afterId: string | null, limit: number): FavouriteRow[] {
  const out: FavouriteRow[] = [];
  const start = afterId === null ? [accountId, range.fromId] : [accountId, afterId];
  for (const { key, value } of store.db.favourites.getRange({ start, end: [accountId, range.toId] })) {
    const favouriteId = (key as string[])[1]!;
    if (favouriteId === afterId) continue;
    out.push({ favouriteId, statusId: value as string });
    if (out.length >= limit) break;
  }
  return out;
}

/** Rows of the account's statuses and reblogs in the range, counted inside LMDB (deleted ones until removed). */
export function countAccountStatusesIn(store: Store, accountId: string, range: IdRange): number {
  return store.db.statusesByAccount.getCount({ start: [accountId, range.fromId], end: [accountId, range.toId] });
}

/** Follows of the account made in the range that still exist (follow ids are their times). */
export function countFollowersIn(store: Store, accountId: string, range: IdRange): number {
  return store.db.followersIndex.getCount({ start: [accountId, range.fromId], end: [accountId, range.toId] });
}

/** Follows by the account made in the range that still exist. */
export function countFollowingIn(store: Store, accountId: string, range: IdRange): number {
  return store.db.followingIndex.getCount({ start: [accountId, range.fromId], end: [accountId, range.toId] });
}

/** Up to `limit` local account ids (those with a user) after `afterId`, in id order. */
export function localAccountIdsAfter(store: Store, afterId: string | null, limit: number): string[] {
  const out: string[] = [];
  for (const key of store.db.users.getKeys({ start: afterId ?? undefined })) {
    if (typeof key !== "string" || key === afterId) continue;
    out.push(key);
    if (out.length >= limit) break;
  }
  return out;
}
