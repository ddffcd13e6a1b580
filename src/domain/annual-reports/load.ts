// Reading reports for their owner (GET /api/v1/annual_reports and /:year): the reports with the accounts and
// statuses they name, loaded in one pass as Mastodon's AnnualReportsPresenter does (statuses through the status
// loader, with the owner's flags). Only the owner ever reads a report: every read is by the token's account.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { getAccount } from "../../store/accounts.ts";
import { annualReportsOf, getAnnualReport } from "../../store/annual-reports.ts";
import { getStatus } from "../../store/statuses.ts";
import { loadStatuses } from "../statuses/load.ts";
import { parseYear } from "./rules.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { AnnualReportRecord } from "../../model/instance.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatuses } from "../statuses/loaded.ts";

export interface LoadedAnnualReports {
  viewerId: string;
  reports: AnnualReportRecord[];
  /** Every account a report names (most reblogged, most interacted with), once. */
  accounts: AccountRecord[];
  /** Every top status a report names that still exists, once. */
  statuses: LoadedStatuses;
}

function load(deps: Deps, viewerId: string, reports: AnnualReportRecord[]): LoadedAnnualReports {
  const accounts = new Map<string, AccountRecord>();
  const statuses = new Map<string, StatusRecord>();
  for (const { data } of reports) {
    for (const { accountId } of [...data.mostRebloggedAccounts, ...data.commonlyInteractedWithAccounts]) {
      if (accounts.has(accountId)) continue;
      const account = getAccount(deps.store, accountId);
      if (account) accounts.set(accountId, account);
    }
    for (const id of Object.values(data.topStatuses)) {
      if (!id || statuses.has(id)) continue;
      const status = getStatus(deps.store, id);
      if (status && !status.deletedAt) statuses.set(id, status);
    }
  }
  return { viewerId, reports, accounts: [...accounts.values()], statuses: loadStatuses(deps, viewerId, [...statuses.values()]) };
}

/** The owner's reports not marked read yet (Mastodon's `pending` scope), oldest year first. */
export function loadUnreadAnnualReports(deps: Deps, viewerId: string): LoadedAnnualReports {
  return load(deps, viewerId, annualReportsOf(deps.store, viewerId).filter((report) => report.viewedAt === null));
}

/** The owner's report of one year, read or not; 404 when there is none. */
export function loadAnnualReport(deps: Deps, viewerId: string, rawYear: string): LoadedAnnualReports {
  const year = parseYear(rawYear);
  const report = year === null ? undefined : getAnnualReport(deps.store, viewerId, year);
  if (!report) throw new NotFound();
  return load(deps, viewerId, [report]);
}
