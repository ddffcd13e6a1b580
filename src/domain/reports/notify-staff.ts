// The `reports.notify_staff` subscriber of `report.created`: an `admin.report` notification from the reporter
// to every local user whose role can manage_reports, as Mastodon's ReportService#notify_staff! does, and like
// it only when no earlier report about the same account is still open (staff are already looking at that
// account). Not to the reporter, nor to suspended accounts or disabled users; notify() applies the usual
// rules (blocks, notification mutes) and makes a second run add nothing.
import { getAccount } from "../../store/accounts.ts";
import { getReport, hasOlderOpenReport, usersWithRole } from "../../store/reports.ts";
import { ROLE_NAMES, roleCan } from "../accounts/roles.ts";
import type { SubscriberContext } from "../events.ts";
import { notify } from "../notifications/notify.ts";

export const REPORT_MANAGERS = ROLE_NAMES.filter((role) => roleCan(role, "manage_reports"));

export async function notifyStaffOfReport(ctx: Pick<SubscriberContext, "store" | "jobs">, reportId: string): Promise<void> {
  const { store } = ctx;
  const report = getReport(store, reportId);
  if (!report || report.actionTakenAt !== null) return;
  if (hasOlderOpenReport(store, report.targetAccountId, report.id)) return;
  const staff = usersWithRole(store, REPORT_MANAGERS).filter((user) => !user.disabled && getAccount(store, user.accountId)?.suspended === false);
  if (staff.length === 0) return;
  await store.write(() => {
    for (const user of staff) {
      notify(ctx, { type: "admin.report", recipientId: user.accountId, fromAccountId: report.accountId, reportId: report.id });
    }
  });
}
