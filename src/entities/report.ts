// Report entity (API.md §4.10): what POST /api/v1/reports answers and admin.report notifications carry.
// Every key of Mastodon 4.6 (reference/mastodon-4.6-keys.json): `rule_ids` is null when the report names no
// rules, `collection_ids` is always empty (collections do not exist here yet).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedReport } from "../domain/reports/load.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Nullable } from "./nullable.ts";
import type { ReportRecord } from "../model/moderation.ts";

/** The fields Report and Admin::Report (admin-report.ts) share, as reportFields renders them. */
export const REPORT_FIELDS = {
  id: t.String(),
  action_taken: t.Boolean({ description: "Whether a moderator has resolved it" }),
  action_taken_at: Nullable(t.String({ description: "When it was resolved" })),
  category: t.String({ description: "spam, legal, violation or other" }),
  comment: t.String(),
  forwarded: t.Boolean({ description: "Forwarded to the reported account's server (remote accounts only)" }),
  created_at: t.String(),
};

export const ReportSchema = t.Object(
  {
    ...REPORT_FIELDS,
    status_ids: Nullable(t.Array(t.String())),
    rule_ids: Nullable(t.Array(t.String(), { description: "The server rules it names; null when none" })),
    collection_ids: t.Array(t.String(), { description: "Always empty: collections are not supported" }),
    target_account: AccountSchema,
  },
  { description: "Mastodon Report" },
);

export type Report = Static<typeof ReportSchema>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A report's fields of REPORT_FIELDS. */
export function reportFields(report: ReportRecord) {
  return {
    id: publicId(report.id),
    action_taken: report.actionTakenAt !== null,
    action_taken_at: iso(report.actionTakenAt),
    category: report.category,
    comment: report.comment,
    forwarded: report.forwarded,
    created_at: new Date(report.createdAt).toISOString(),
  };
}

/** Rendered for `viewerId` (the reporter, or the staff member a notification is for). */
export function presentReport(config: Config, loaded: LoadedReport, viewerId: string | null): Report {
  const { report } = loaded;
  return {
    ...reportFields(report),
    status_ids: report.statusIds.map(publicId),
    rule_ids: report.ruleIds === null ? null : report.ruleIds.map(publicId),
    collection_ids: [],
    target_account: presentAccount(config, loaded.target, viewerId),
  };
}
