// Admin::Report (Mastodon's REST::Admin::ReportSerializer): a report as moderators see it, with the reporter,
// the reported account, the assigned moderator and the one who resolved it as Admin::Account, the reported
// statuses and the rules. Every key of Mastodon 4.6 (reference/mastodon-4.6-keys.json).
//
// NOTE: Admin::Account is rendered here by a minimal presenter (presentReportAdminAccount) because the admin
// accounts API (src/entities/admin-account.ts) was being written at the same time; it is to be replaced by
// that one when both are in. Warren keeps no sign-in addresses (ip null, ips empty) and has no "sensitized"
// state yet (false).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { roleOf } from "../domain/accounts/roles.ts";
import type { LoadedAdminAccount, LoadedAdminReports } from "../domain/reports/load.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount, presentRole, RoleSchema } from "./account.ts";
import { presentRule, RuleSchema } from "./instance.ts";
import { Nullable } from "./nullable.ts";
import { presentStatuses, StatusSchema } from "./status.ts";

const IpSchema = t.Object({ ip: t.String(), used_at: t.String() });

export const ReportAdminAccountSchema = t.Object(
  {
    id: t.String(),
    username: t.String(),
    domain: Nullable(t.String()),
    created_at: t.String(),
    email: Nullable(t.String({ description: "Local accounts only" })),
    ip: Nullable(t.String({ description: "Latest sign-in address (not kept: null)" })),
    ips: t.Array(IpSchema, { description: "Sign-in addresses (not kept: empty)" }),
    locale: Nullable(t.String()),
    invite_request: Nullable(t.String({ description: "The reason given at sign-up" })),
    role: Nullable(RoleSchema),
    confirmed: t.Boolean(),
    approved: t.Boolean(),
    disabled: t.Boolean(),
    sensitized: t.Boolean(),
    silenced: t.Boolean(),
    suspended: t.Boolean(),
    account: AccountSchema,
    created_by_application_id: t.Optional(t.String()),
  },
  { description: "Mastodon Admin::Account" },
);

type ReportAdminAccount = Static<typeof ReportAdminAccountSchema>;

export const AdminReportSchema = t.Object(
  {
    id: t.String(),
    action_taken: t.Boolean(),
    action_taken_at: Nullable(t.String()),
    category: t.String({ description: "spam, legal, violation or other" }),
    comment: t.String(),
    forwarded: t.Boolean(),
    created_at: t.String(),
    updated_at: t.String(),
    account: ReportAdminAccountSchema,
    target_account: ReportAdminAccountSchema,
    assigned_account: Nullable(ReportAdminAccountSchema),
    action_taken_by_account: Nullable(ReportAdminAccountSchema),
    statuses: t.Array(StatusSchema),
    rules: t.Array(RuleSchema),
  },
  { description: "Mastodon Admin::Report" },
);

export type AdminReport = Static<typeof AdminReportSchema>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentReportAdminAccount(config: Config, loaded: LoadedAdminAccount, viewerId: string): ReportAdminAccount {
  const { account, user } = loaded;
  const out: ReportAdminAccount = {
    id: publicId(account.id),
    username: account.username,
    domain: account.domain,
    created_at: new Date(user?.createdAt ?? account.createdAt).toISOString(),
    email: user?.email ?? null,
    ip: null,
    ips: [],
    locale: user?.locale ?? null,
    invite_request: user?.reason ?? null,
    role: user ? presentRole(roleOf(user.role)) : null,
    confirmed: user ? user.confirmedAt !== null : false,
    approved: user ? user.approved : false,
    disabled: user ? user.disabled : false,
    sensitized: false,
    silenced: account.silenced,
    suspended: account.suspended,
    account: presentAccount(config, account, viewerId),
  };
  if (user?.createdByAppId) out.created_by_application_id = publicId(user.createdByAppId);
  return out;
}

export function presentAdminReports(config: Config, loaded: LoadedAdminReports): AdminReport[] {
  const { viewerId } = loaded;
  const admin = (entry: LoadedAdminAccount | null) => (entry ? presentReportAdminAccount(config, entry, viewerId) : null);
  return loaded.reports.map((entry) => {
    const { report } = entry;
    return {
      id: publicId(report.id),
      action_taken: report.actionTakenAt !== null,
      action_taken_at: iso(report.actionTakenAt),
      category: report.category,
      comment: report.comment,
      forwarded: report.forwarded,
      created_at: new Date(report.createdAt).toISOString(),
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
