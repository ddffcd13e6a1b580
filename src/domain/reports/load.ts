// Loading reports for presentation, read in one pass: the reported account (the Report entity the reporter
// gets and admin.report notifications carry), and for the admin API the accounts with their users, the
// reported statuses through the status loader, and the rules. entities/report.ts and admin-report.ts render
// what is returned here.
import { adminAccountView, type AdminAccountView } from "../admin/accounts-read.ts";
import type { Deps } from "../../deps.ts";
import { getAccount } from "../../store/accounts.ts";
import { getReport } from "../../store/reports.ts";
import { getRule } from "../../store/rules.ts";
import { getStatus } from "../../store/statuses.ts";
import { loadStatuses } from "../statuses/load.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { RuleRecord } from "../../model/instance.ts";
import type { ReportRecord } from "../../model/moderation.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatus } from "../statuses/loaded.ts";

export interface LoadedReport {
  report: ReportRecord;
  target: AccountRecord;
}

/** A report with its reported account; null when either is gone. */
export function loadReport(deps: Pick<Deps, "store">, report: ReportRecord | string): LoadedReport | null {
  const record = typeof report === "string" ? getReport(deps.store, report) : report;
  const target = record ? getAccount(deps.store, record.targetAccountId) : undefined;
  return record && target ? { report: record, target } : null;
}

/** An account with its user, as the admin accounts API loads it. */
export type LoadedAdminAccount = AdminAccountView;

export interface LoadedAdminReport {
  report: ReportRecord;
  account: LoadedAdminAccount;
  target: LoadedAdminAccount;
  assigned: LoadedAdminAccount | null;
  actionTakenBy: LoadedAdminAccount | null;
  /** The reported statuses still stored (deleted ones until their removal completes), in the report's order. */
  statuses: LoadedStatus[];
  /** The rules named that still exist. */
  rules: RuleRecord[];
}

export interface LoadedAdminReports {
  /** The moderator reading (the statuses' viewer flags are theirs; no filters apply). */
  viewerId: string;
  reports: LoadedAdminReport[];
}

/** Reports for a moderator; a report whose reporter or reported account is gone is left out. */
export function loadAdminReports(deps: Deps, viewerId: string, reports: readonly ReportRecord[]): LoadedAdminReports {
  const accounts = new Map<string, LoadedAdminAccount | null>();
  const adminAccount = (id: string | null): LoadedAdminAccount | null => {
    if (id === null) return null;
    let hit = accounts.get(id);
    if (hit === undefined) {
      const account = getAccount(deps.store, id);
      hit = account ? adminAccountView(deps.store, account) : null;
      accounts.set(id, hit);
    }
    return hit;
  };
  const records = new Map<string, StatusRecord>();
  for (const report of reports) {
    for (const id of report.statusIds) {
      const status = records.has(id) ? undefined : getStatus(deps.store, id);
      if (status) records.set(id, status);
    }
  }
  const loaded = new Map<string, LoadedStatus>();
  for (const entry of loadStatuses(deps, viewerId, [...records.values()], { accountId: null }).statuses) loaded.set(entry.status.id, entry);
  const out: LoadedAdminReport[] = [];
  for (const report of reports) {
    const account = adminAccount(report.accountId);
    const target = adminAccount(report.targetAccountId);
    if (!account || !target) continue;
    out.push({
      report,
      account,
      target,
      assigned: adminAccount(report.assignedAccountId),
      actionTakenBy: adminAccount(report.actionTakenByAccountId),
      statuses: report.statusIds.map((id) => loaded.get(id)).filter((entry): entry is LoadedStatus => entry !== undefined),
      rules: (report.ruleIds ?? []).map((id) => getRule(deps.store, id)).filter((rule): rule is RuleRecord => rule !== undefined),
    });
  }
  return { viewerId, reports: out };
}
