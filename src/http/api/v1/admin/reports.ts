// The admin reports API (Mastodon's Admin::ReportsController): list with filters, show, change category and
// rules, assign to oneself, unassign, resolve, reopen. Staff only: a user token with admin:read:reports or
// admin:write:reports (or the wider admin:read / admin:write) whose role can manage_reports; anyone else 403.
import { Elysia, t, type Static } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { NotFound } from "../../../../lib/errors.ts";
import {
  ADMIN_REPORT_LIMIT, ADMIN_REPORT_MAX, assignReportTo, findReport, reopenReport, reportsPage, resolveReport, unassignReport, updateReport,
} from "../../../../domain/reports/admin.ts";
import { loadAdminReports } from "../../../../domain/reports/load.ts";
import { AdminReportSchema, presentAdminReport, presentAdminReports, type AdminReport } from "../../../../entities/admin-report.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { boundedPageQuery, linkHeader } from "../../../plugins/paging.ts";
import { ErrorBody, Flag, pagingQuery, toBool } from "../../../schemas.ts";
import type { ReportRecord } from "../../../../model/moderation.ts";

const READ = { scopes: ["admin:read:reports"], permission: "manage_reports" } as const;
const WRITE = { scopes: ["admin:write:reports"], permission: "manage_reports" } as const;
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Report id" }) });

const ListQuery = t.Object({
  resolved: t.Optional(Flag({ description: "true: resolved reports only; otherwise unresolved ones only" })),
  account_id: t.Optional(t.String({ description: "Reports filed by this account" })),
  target_account_id: t.Optional(t.String({ description: "Reports about this account" })),
  ...pagingQuery,
});

const UpdateBody = t.Object({
  category: t.Optional(t.String({ description: "spam, legal, violation or other" })),
  rule_ids: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "Ids of this server's rules (rule_ids[]=…)" })),
});

/** GET /api/v1/admin/reports: a page of reports, newest first, with its Link header. */
function reportsList(
  deps: Deps,
  viewerId: string,
  query: Static<typeof ListQuery>,
  request: Request,
  set: { headers: Record<string, unknown> },
): AdminReport[] {
  const page = boundedPageQuery(query, ADMIN_REPORT_LIMIT, ADMIN_REPORT_MAX);
  const reports = reportsPage(
    deps.store,
    { resolved: toBool(query.resolved), accountId: query.account_id, targetAccountId: query.target_account_id },
    page,
  );
  const link = linkHeader({
    baseUrl: deps.config.url,
    request,
    first: reports[0]?.id,
    last: reports.at(-1)?.id,
    next: reports.length > 0 && reports.length === page.limit,
    prevParam: "min_id",
    budget: page.budget,
  });
  if (link) set.headers["link"] = link;
  return presentAdminReports(deps.config, loadAdminReports(deps, viewerId, reports));
}

export const adminReportRoutes = (deps: Deps) => {
  /** One report for the moderator `viewerId` (404 if its accounts are gone). */
  const one = (viewerId: string, report: ReportRecord) => {
    const loaded = loadAdminReports(deps, viewerId, [report]);
    if (loaded.reports.length === 0) throw new NotFound();
    return presentAdminReport(deps.config, loaded);
  };
  const action = (summary: string) => ({
    admin: WRITE,
    params: IdParams,
    response: { 200: AdminReportSchema, ...errors },
    detail: { summary, tags: ["admin"] },
  });

  return new Elysia({ name: "admin-report-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/admin/reports",
      ({ viewer, query, request, set }) => reportsList(deps, viewer.account.id, query, request, set),
      {
        admin: READ,
        query: ListQuery,
        response: { 200: t.Array(AdminReportSchema), ...errors },
        detail: { summary: `Reports, newest first (unresolved unless resolved=true; limit ${ADMIN_REPORT_LIMIT}, at most ${ADMIN_REPORT_MAX})`, tags: ["admin"] },
      },
    )
    .get("/api/v1/admin/reports/:id", ({ viewer, params }) => one(viewer.account.id, findReport(deps.store, params.id)), {
      admin: READ,
      params: IdParams,
      response: { 200: AdminReportSchema, ...errors },
      detail: { summary: "One report", tags: ["admin"] },
    })
    .put(
      "/api/v1/admin/reports/:id",
      async ({ viewer, params, body }) => {
        const ruleIds = body?.rule_ids === undefined ? undefined : (Array.isArray(body.rule_ids) ? body.rule_ids : [body.rule_ids]).filter((id) => id !== "");
        return one(viewer.account.id, await updateReport(deps, params.id, { category: body?.category, ruleIds }));
      },
      {
        admin: WRITE,
        params: IdParams,
        body: t.Optional(UpdateBody),
        response: { 200: AdminReportSchema, ...errors },
        detail: { summary: "Change a report's category and rules", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/reports/:id/assign_to_self",
      async ({ viewer, params }) => one(viewer.account.id, await assignReportTo(deps, params.id, viewer.account.id)),
      action("Assign the report to yourself"),
    )
    .post(
      "/api/v1/admin/reports/:id/unassign",
      async ({ viewer, params }) => one(viewer.account.id, await unassignReport(deps, params.id)),
      action("Unassign the report"),
    )
    .post(
      "/api/v1/admin/reports/:id/resolve",
      async ({ viewer, params }) => one(viewer.account.id, await resolveReport(deps, params.id, viewer.account.id)),
      action("Mark the report resolved"),
    )
    .post(
      "/api/v1/admin/reports/:id/reopen",
      async ({ viewer, params }) => one(viewer.account.id, await reopenReport(deps, params.id)),
      action("Reopen a resolved report"),
    );
};
