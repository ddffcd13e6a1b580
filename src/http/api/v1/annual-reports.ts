// Annual reports (API.md §7.9, docs/annual-reports.md): the owner's unread reports, one year's report, its state,
// generating it (a job) and marking it read. Scopes as Mastodon's controller: read:accounts to read,
// write:accounts to generate and mark read. A report is only ever the token holder's own.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { markAnnualReportRead, requestAnnualReport } from "../../../domain/annual-reports/generate.ts";
import { loadAnnualReport, loadUnreadAnnualReports } from "../../../domain/annual-reports/load.ts";
import { parseYear, reportState } from "../../../domain/annual-reports/rules.ts";
import { AnnualReportsSchema, AnnualReportStateSchema, presentAnnualReports } from "../../../entities/annual-report.ts";
import { publicId } from "../../../lib/ids.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody } from "../../schemas.ts";

const READ = ["read:accounts"];
const WRITE = ["write:accounts"];
const errors = { 401: ErrorBody, 403: ErrorBody, 422: ErrorBody };
const YearParams = t.Object({ year: t.String({ description: "The year, e.g. 2025" }) });

/** Mastodon polls a generation every 2 s (its AsyncRefresh's retry). */
const RETRY_SECONDS = 2;

/** `Mastodon-Async-Refresh` while a report is being generated (API.md §1; clients poll …/state meanwhile). */
function asyncRefreshHeader(accountId: string, year: string): string {
  const id = Buffer.from(`wrapstodon:${publicId(accountId)}:${year}`).toString("base64url");
  return `id="${id}", retry=${RETRY_SECONDS}`;
}

export const annualReportRoutes = (deps: Deps) =>
  new Elysia({ name: "annual-report-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/annual_reports", ({ viewer }) => presentAnnualReports(deps.config, loadUnreadAnnualReports(deps, viewer.account.id)), {
      auth: READ,
      response: { 200: AnnualReportsSchema, ...errors },
      detail: { summary: "Your annual reports not marked read yet, with the accounts and statuses they name", tags: ["annual reports"] },
    })
    .get(
      "/api/v1/annual_reports/:year",
      ({ viewer, params }) => presentAnnualReports(deps.config, loadAnnualReport(deps, viewer.account.id, params.year)),
      {
        auth: READ,
        params: YearParams,
        response: { 200: AnnualReportsSchema, 404: ErrorBody, ...errors },
        detail: { summary: "Your annual report of one year (404 when there is none)", tags: ["annual reports"] },
      },
    )
    .get(
      "/api/v1/annual_reports/:year/state",
      ({ viewer, params, set }) => {
        const state = reportState(deps.store, viewer.account.id, parseYear(params.year), Date.now());
        if (state === "generating") set.headers["mastodon-async-refresh"] = asyncRefreshHeader(viewer.account.id, params.year);
        return { state };
      },
      {
        auth: READ,
        params: YearParams,
        response: { 200: AnnualReportStateSchema, ...errors },
        detail: { summary: "available, generating, eligible (may be generated now) or ineligible", tags: ["annual reports"] },
      },
    )
    .post(
      "/api/v1/annual_reports/:year/generate",
      async ({ viewer, params, set }) => {
        const outcome = await requestAnnualReport(deps, viewer.account.id, params.year);
        if (outcome === "exists" || outcome === "refused") return {};
        set.headers["mastodon-async-refresh"] = asyncRefreshHeader(viewer.account.id, params.year);
        set.status = 202;
        return "";
      },
      {
        auth: WRITE,
        params: YearParams,
        response: {
          200: EmptyObject,
          202: t.Literal("", { description: "Generation started or under way (empty body); poll …/state" }),
          ...errors,
        },
        detail: {
          summary: "Generate the report of a year that has ended (or of this year from 10 December): 202 while it is generated, {} when it exists or may not be generated",
          tags: ["annual reports"],
        },
      },
    )
    .post(
      "/api/v1/annual_reports/:year/read",
      async ({ viewer, params }) => {
        await markAnnualReportRead(deps.store, viewer.account.id, params.year);
        return {};
      },
      {
        auth: WRITE,
        params: YearParams,
        response: { 200: EmptyObject, 404: ErrorBody, ...errors },
        detail: { summary: "Mark the report read: it leaves GET /api/v1/annual_reports", tags: ["annual reports"] },
      },
    );
