// Reports (Mastodon's Report): what a user filed about an account, and the moderators' handling of it. Five
// families share the `reports` keyspace, told apart by the key's first element:
//   ["r", reportId]                    → ReportRecord
//   ["o", reportId] / ["c", reportId]  → null: open (unresolved) and closed (resolved) reports, for the admin list
//   ["a", accountId, reportId]         → null: by reporter (admin filter account_id)
//   ["t", targetAccountId, reportId]   → null: by reported account (admin filter target_account_id, siblings)
// Report ids are snowflakes, so every family pages newest first by id with one range scan.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { RoleName, UserRecord } from "../model/accounts.ts";
import type { ReportRecord } from "../model/moderation.ts";
import type { PageQuery } from "../model/paging.ts";

const RECORD = "r";
const OPEN = "o";
const CLOSED = "c";
const BY_REPORTER = "a";
const BY_TARGET = "t";

export function getReport(store: Store, id: string): ReportRecord | undefined {
  return store.db.reports.get([RECORD, id]);
}

function stateKey(report: ReportRecord): [string, string] {
  return [report.actionTakenAt === null ? OPEN : CLOSED, report.id];
}

/** Inside a write: a new report or a new version of one (its open/closed row follows `actionTakenAt`). */
export function putReport(store: Store, report: ReportRecord, previous?: ReportRecord): void {
  if (previous && stateKey(previous)[0] !== stateKey(report)[0]) store.db.reports.remove(stateKey(previous));
  store.db.reports.put([RECORD, report.id], report);
  store.db.reports.put(stateKey(report), null);
  if (!previous) {
    store.db.reports.put([BY_REPORTER, report.accountId, report.id], null);
    store.db.reports.put([BY_TARGET, report.targetAccountId, report.id], null);
  }
}

export interface ReportIndex {
  /** true: resolved ones, false: unresolved ones, null: both */
  resolved: boolean | null;
  accountId?: string | null;
  targetAccountId?: string | null;
}

/**
 * A page of reports, newest first, through the narrowest index the filter allows (reported account, then
 * reporter, then open/closed); the other conditions are checked on the records.
 */
export function pageReports(store: Store, filter: ReportIndex, query: PageQuery): ReportRecord[] {
  const matches = (report: ReportRecord | undefined): report is ReportRecord =>
    !!report &&
    (filter.resolved === null || (report.actionTakenAt !== null) === filter.resolved) &&
    (!filter.accountId || report.accountId === filter.accountId) &&
    (!filter.targetAccountId || report.targetAccountId === filter.targetAccountId);
  let prefix: string[];
  if (filter.targetAccountId) prefix = [BY_TARGET, filter.targetAccountId];
  else if (filter.accountId) prefix = [BY_REPORTER, filter.accountId];
  else if (filter.resolved !== null) prefix = [filter.resolved ? CLOSED : OPEN];
  else prefix = [RECORD];
  const idAt = prefix.length;
  const out: ReportRecord[] = [];
  for (const row of scanPage<unknown>(store.db.reports, prefix, query, (row) => matches(getReport(store, row.key[idAt])))) {
    out.push(getReport(store, row.key[idAt])!);
  }
  return out;
}

/**
 * Is another report about the same account, filed before `reportId`, still unresolved? (Mastodon's
 * `unresolved_siblings?` as it stands when a report is filed: later reports do not count.)
 */
export function hasOlderOpenReport(store: Store, targetAccountId: string, reportId: string): boolean {
  for (const key of store.db.reports.getKeys({ start: [BY_TARGET, targetAccountId], end: [BY_TARGET, targetAccountId, reportId] })) {
    if (store.db.reports.doesExist([OPEN, (key as string[])[2]!])) return true;
  }
  return false;
}

/** Ids of the unresolved reports about `targetAccountId`, oldest first. */
export function openReportIdsAbout(store: Store, targetAccountId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.reports.getKeys({ start: [BY_TARGET, targetAccountId], end: [BY_TARGET, targetAccountId, END] })) {
    const id = (key as string[])[2]!;
    if (store.db.reports.doesExist([OPEN, id])) out.push(id);
  }
  return out;
}

/**
 * Local users whose role is one of `roles` (the staff a new report is announced to). A scan of the users:
 * staff notifications run in a job, and instances of the size Warren is for have few thousand users at most.
 */
export function usersWithRole(store: Store, roles: readonly RoleName[]): UserRecord[] {
  const out: UserRecord[] = [];
  for (const { value } of store.db.users.getRange({})) {
    const user = value as UserRecord | null;
    if (user && typeof user === "object" && roles.includes(user.role)) out.push(user);
  }
  return out;
}

/** Reports filed from `startId` to `endId` (snowflake ids, so a time range), oldest first. */
export function* reportsFiledBetween(store: Store, startId: string, endId: string): Iterable<ReportRecord> {
  for (const { value } of store.db.reports.getRange({ start: [RECORD, startId], end: [RECORD, endId] })) yield value as ReportRecord;
}

/** Every resolved report (an instance's handful; the dashboard's measures filter them by time). */
export function* resolvedReports(store: Store): Iterable<ReportRecord> {
  for (const key of store.db.reports.getKeys({ start: [CLOSED], end: [CLOSED, END] })) {
    const report = getReport(store, String((key as string[])[1]));
    if (report) yield report;
  }
}
