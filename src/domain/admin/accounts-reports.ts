// The reports an account action settles (Mastodon's Admin::AccountAction#process_reports!): `report_id` must
// name a report (404 otherwise); `none` resolves that one only, every other action every open report about
// the account. Resolved by the acting staff member, inside the action's write (domain/reports/admin.ts).
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getReport } from "../../store/reports.ts";
import { resolveReportsInWrite } from "../reports/admin.ts";
import type { Staff } from "./accounts-policy.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { WarningAction } from "../../model/moderation.ts";

/**
 * Inside the action's write: resolves what the action settles and returns the report the warning refers to.
 * The operator at the console is no account that could be recorded as having resolved them: their actions
 * leave reports as they are.
 */
export function resolveReportsOfAction(
  store: Store,
  staff: Staff,
  account: AccountRecord,
  type: WarningAction,
  rawReportId: string | null,
  now: number,
): string | null {
  let reportId: string | null = null;
  if (rawReportId) {
    reportId = normaliseId(rawReportId);
    if (!reportId || !getReport(store, reportId)) throw new NotFound();
  }
  if (staff === null) return reportId;
  if (type === "none") {
    if (reportId) resolveReportsInWrite(store, account.id, [reportId], staff.account.id, now);
  } else {
    resolveReportsInWrite(store, account.id, null, staff.account.id, now);
  }
  return reportId;
}
