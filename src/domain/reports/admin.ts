// Handling reports (the admin reports API, API.md §8; Mastodon's Admin::ReportsController): listing with
// filters, changing category and rules, assigning, resolving and reopening. Who may do this (a role with
// manage_reports) is checked by the route's admin rule; here every change re-reads the report inside its
// write, so two moderators acting at once each change the report as the other left it.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getReport, openReportIdsAbout, pageReports, putReport } from "../../store/reports.ts";
import { validCategory, validRuleIds } from "./create.ts";
import type { ReportRecord } from "../../model/moderation.ts";
import type { PageQuery } from "../../model/paging.ts";

/** Admin report lists: 100, at most 200 (API.md §9). */
export const ADMIN_REPORT_LIMIT = 100;
export const ADMIN_REPORT_MAX = 200;

export function findReport(store: Store, rawId: string): ReportRecord {
  const id = normaliseId(rawId);
  const report = id ? getReport(store, id) : undefined;
  if (!report) throw new NotFound();
  return report;
}

export interface ReportFilter {
  /** true: resolved reports only; false or absent: unresolved ones only (Mastodon's default). */
  resolved?: boolean;
  /** the reporter */
  accountId?: string;
  /** the reported account */
  targetAccountId?: string;
}

/** GET /api/v1/admin/reports: newest first. An account id that is not an id matches nothing. */
export function reportsPage(store: Store, filter: ReportFilter, query: PageQuery): ReportRecord[] {
  const accountId = filter.accountId === undefined ? null : normaliseId(filter.accountId);
  const targetAccountId = filter.targetAccountId === undefined ? null : normaliseId(filter.targetAccountId);
  if ((filter.accountId !== undefined && !accountId) || (filter.targetAccountId !== undefined && !targetAccountId)) return [];
  return pageReports(store, { resolved: filter.resolved ?? false, accountId, targetAccountId }, query);
}

export interface ReportSummary {
  report: ReportRecord;
  /** user or user@domain; null when the account is gone */
  reporter: string | null;
  target: string | null;
}

const acctOf = (store: Store, id: string): string | null => {
  const account = getAccount(store, id);
  return account ? (account.domain ? `${account.username}@${account.domain}` : account.username) : null;
};

/** Every report, newest first (`warren reports list`); `unresolvedOnly` leaves out the resolved ones. */
export function allReports(store: Store, unresolvedOnly: boolean): ReportSummary[] {
  return pageReports(store, { resolved: unresolvedOnly ? false : null }, { limit: Infinity }).map((report) => ({
    report,
    reporter: acctOf(store, report.accountId),
    target: acctOf(store, report.targetAccountId),
  }));
}

/** Re-reads the report inside a write and stores what `change` makes of it (with a new `updatedAt`). */
async function changeReport(deps: Pick<Deps, "store">, rawId: string, change: (report: ReportRecord, now: number) => Partial<ReportRecord>): Promise<ReportRecord> {
  const { store } = deps;
  const id = findReport(store, rawId).id;
  return store.write(() => {
    const current = getReport(store, id);
    if (!current) throw new NotFound();
    const now = Date.now();
    const updated: ReportRecord = { ...current, ...change(current, now), updatedAt: now };
    putReport(store, updated, current);
    return updated;
  });
}

export interface ReportUpdate {
  category?: string;
  ruleIds?: string[];
}

/** PUT: the category and the rules, each when given (422 for an unknown category or a rule not of this server). */
export function updateReport(deps: Pick<Deps, "store">, rawId: string, input: ReportUpdate): Promise<ReportRecord> {
  const ruleIds = input.ruleIds === undefined ? undefined : validRuleIds(deps.store, input.ruleIds);
  return changeReport(deps, rawId, (report) => ({
    category: validCategory(input.category, report.category),
    ...(ruleIds === undefined ? {} : { ruleIds }),
  }));
}

export const assignReportTo = (deps: Pick<Deps, "store">, rawId: string, moderatorId: string) =>
  changeReport(deps, rawId, () => ({ assignedAccountId: moderatorId }));

export const unassignReport = (deps: Pick<Deps, "store">, rawId: string) => changeReport(deps, rawId, () => ({ assignedAccountId: null }));

/** Resolving again records the later moderator and time, as Mastodon's `resolve!` does. */
export const resolveReport = (deps: Pick<Deps, "store">, rawId: string, moderatorId: string) =>
  changeReport(deps, rawId, (_report, now) => ({ actionTakenAt: now, actionTakenByAccountId: moderatorId }));

export const reopenReport = (deps: Pick<Deps, "store">, rawId: string) =>
  changeReport(deps, rawId, () => ({ actionTakenAt: null, actionTakenByAccountId: null }));

/**
 * Inside a write (an admin account action with `report_id`, Mastodon's AccountAction#process_reports!): resolves
 * the reports named, by `moderatorId` at `now`. `reportIds` null: every unresolved report about `targetAccountId`.
 * Reports already resolved keep who resolved them; unknown ids are skipped. Returns the reports it resolved.
 */
export function resolveReportsInWrite(
  store: Store,
  targetAccountId: string,
  reportIds: readonly string[] | null,
  moderatorId: string,
  now: number,
): ReportRecord[] {
  const out: ReportRecord[] = [];
  for (const id of reportIds ?? openReportIdsAbout(store, targetAccountId)) {
    const current = getReport(store, id);
    if (!current || current.actionTakenAt !== null) continue;
    const resolved: ReportRecord = { ...current, actionTakenAt: now, actionTakenByAccountId: moderatorId, updatedAt: now };
    putReport(store, resolved, current);
    out.push(resolved);
  }
  return out;
}
