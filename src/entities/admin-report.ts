// Admin::Report (Mastodon's REST::Admin::ReportSerializer): a report as moderators see it, with the reporter,
// the reported account, the assigned moderator and the one who resolved it as Admin::Account, the reported
// statuses and the rules. Every key of Mastodon 4.6 (reference/mastodon-4.6-keys.json).
// Admin::Account comes from its own entity (admin-account.ts), as the admin accounts API renders it.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedAdminAccount, LoadedAdminReports } from "../domain/reports/load.ts";
import { AdminAccountSchema, presentAdminAccount } from "./admin-account.ts";
import { presentRule, RuleSchema } from "./instance.ts";
import { Nullable } from "./nullable.ts";
import { REPORT_FIELDS, reportFields } from "./report.ts";
import { presentStatuses, StatusSchema } from "./status.ts";


export const AdminReportSchema = t.Object(
  {
    ...REPORT_FIELDS,
    updated_at: t.String(),
    account: AdminAccountSchema,
    target_account: AdminAccountSchema,
    assigned_account: Nullable(AdminAccountSchema),
    action_taken_by_account: Nullable(AdminAccountSchema),
    statuses: t.Array(StatusSchema),
    rules: t.Array(RuleSchema),
  },
  { description: "Mastodon Admin::Report" },
);

export type AdminReport = Static<typeof AdminReportSchema>;

export function presentAdminReports(config: Config, loaded: LoadedAdminReports): AdminReport[] {
  const { viewerId } = loaded;
  const admin = (entry: LoadedAdminAccount | null) => (entry ? presentAdminAccount(config, entry, viewerId) : null);
  return loaded.reports.map((entry) => {
    const { report } = entry;
    return {
      ...reportFields(report),
      updated_at: new Date(report.updatedAt).toISOString(),
      account: admin(entry.account)!,
      target_account: admin(entry.target)!,
      assigned_account: admin(entry.assigned),
      action_taken_by_account: admin(entry.actionTakenBy),
      statuses: presentStatuses(config, { viewerId, statuses: entry.statuses }),
      rules: entry.rules.map(presentRule),
    };
  });
}

/** One report (the single-report endpoints); the loader leaves out a report whose accounts are gone. */
export function presentAdminReport(config: Config, loaded: LoadedAdminReports): AdminReport {
  const [presented] = presentAdminReports(config, loaded);
  if (!presented) throw new Error("the report's accounts are gone");
  return presented;
}
