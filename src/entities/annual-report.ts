// Annual reports (API.md §4.14, §7.9): Mastodon's AnnualReportsSerializer wrapper `{annual_reports, accounts,
// statuses}`, each AnnualReport `{year, data, schema_version, share_url, account_id}` with `data` in Mastodon's
// schema 1 words, the `{state}` answer, and the `annual_report` field of notifications (`{year}` as a string).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedAnnualReports } from "../domain/annual-reports/load.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccounts } from "./account.ts";
import { Int } from "./integer.ts";
import { Nullable } from "./nullable.ts";
import { presentStatuses, StatusSchema } from "./status.ts";
import type { AccountCount, AnnualReportData, AnnualReportRecord, NameCount } from "../model/instance.ts";

const NameCountSchema = t.Object({ name: t.String(), count: Int() });
const AccountCountSchema = t.Object({ account_id: t.String(), count: Int() });

const AnnualReportDataSchema = t.Object(
  {
    archetype: t.Union([t.Literal("lurker"), t.Literal("booster"), t.Literal("pollster"), t.Literal("replier"), t.Literal("oracle")]),
    type_distribution: t.Object({ total: Int(), reblogs: Int(), replies: Int(), standalone: Int() }),
    top_statuses: t.Object({
      by_reblogs: Nullable(t.String()),
      by_favourites: Nullable(t.String()),
      by_replies: Nullable(t.String()),
    }),
    most_used_apps: t.Array(NameCountSchema),
    commonly_interacted_with_accounts: t.Array(AccountCountSchema, {
      description: "Accounts replied to, mentioned, reblogged or favourited that year, at least twice",
    }),
    time_series: t.Array(t.Object({ month: Int(), statuses: Int(), following: Int(), followers: Int() })),
    top_hashtags: t.Array(NameCountSchema),
    most_reblogged_accounts: t.Array(AccountCountSchema),
    percentiles: t.Object({ followers: t.Number(), statuses: t.Number() }),
  },
  { description: "Mastodon annual report data, schema 1 (docs/annual-reports.md)" },
);

export const AnnualReportSchema = t.Object(
  {
    year: Int(),
    data: AnnualReportDataSchema,
    schema_version: Int(),
    share_url: Nullable(t.String({ description: "Always null: Warren has no public report pages" })),
    account_id: t.String(),
  },
  { description: "Mastodon AnnualReport" },
);

export const AnnualReportsSchema = t.Object(
  { annual_reports: t.Array(AnnualReportSchema), accounts: t.Array(AccountSchema), statuses: t.Array(StatusSchema) },
  { description: "Mastodon AnnualReports: reports with the accounts and statuses they name" },
);

export const AnnualReportStateSchema = t.Object(
  { state: t.Union([t.Literal("available"), t.Literal("generating"), t.Literal("eligible"), t.Literal("ineligible")]) },
  { description: "Whether the report exists, is being generated, may be generated or may not" },
);

/** The `annual_report` field of an annual_report notification (Mastodon's AnnualReportEventSerializer). */
export const AnnualReportEventSchema = t.Object({ year: t.String() }, { description: "The year of the report (annual_report notifications)" });

export type AnnualReport = Static<typeof AnnualReportSchema>;
export type AnnualReports = Static<typeof AnnualReportsSchema>;
type AnnualReportDataJson = Static<typeof AnnualReportDataSchema>;

const accountCounts = (rows: AccountCount[]) => rows.map((row) => ({ account_id: publicId(row.accountId), count: row.count }));
const nameCounts = (rows: NameCount[]) => rows.map((row) => ({ name: row.name, count: row.count }));
const statusId = (id: string | null) => (id === null ? null : publicId(id));

function presentData(data: AnnualReportData): AnnualReportDataJson {
  return {
    archetype: data.archetype,
    type_distribution: { ...data.typeDistribution },
    top_statuses: {
      by_reblogs: statusId(data.topStatuses.byReblogs),
      by_favourites: statusId(data.topStatuses.byFavourites),
      by_replies: statusId(data.topStatuses.byReplies),
    },
    most_used_apps: nameCounts(data.mostUsedApps),
    commonly_interacted_with_accounts: accountCounts(data.commonlyInteractedWithAccounts),
    time_series: data.timeSeries.map((m) => ({ month: m.month, statuses: m.statuses, following: m.following, followers: m.followers })),
    top_hashtags: nameCounts(data.topHashtags),
    most_reblogged_accounts: accountCounts(data.mostRebloggedAccounts),
    percentiles: { followers: data.percentiles.followers, statuses: data.percentiles.statuses },
  };
}

export function presentAnnualReport(report: AnnualReportRecord): AnnualReport {
  return {
    year: report.year,
    data: presentData(report.data),
    schema_version: report.schemaVersion,
    share_url: null,
    account_id: publicId(report.accountId),
  };
}

export function presentAnnualReports(config: Config, loaded: LoadedAnnualReports): AnnualReports {
  return {
    annual_reports: loaded.reports.map(presentAnnualReport),
    accounts: presentAccounts(config, loaded.accounts, loaded.viewerId),
    statuses: presentStatuses(config, loaded.statuses),
  };
}

export function presentAnnualReportEvent(year: number): Static<typeof AnnualReportEventSchema> {
  return { year: String(year) };
}
