// GET /admin/reports (?resolved=1), GET /admin/reports/:id, POST /admin/reports/:id/resolve|reopen|action
// (docs/admin.md, "Pages"): the reports with their statuses, through the admin reports API's functions
// (manage_reports); an action on the reported account goes through performAccountAction with the report's id,
// which resolves it, as the API's POST /api/v1/admin/accounts/:id/action with report_id.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { performAccountAction } from "../../domain/admin/accounts-actions.ts";
import { ADMIN_REPORT_LIMIT, ADMIN_REPORT_MAX, findReport, reopenReport, reportsPage, resolveReport } from "../../domain/reports/admin.ts";
import { loadAdminReports, type LoadedAdminReport } from "../../domain/reports/load.ts";
import { NotFound, type ApiError } from "../../lib/errors.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { boundedPageQuery } from "../plugins/paging.ts";
import { e, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody, onlyStringQuery } from "../auth/schemas.ts";
import { ACTION_DONE, ActionBody, actionForm, actionInput } from "./action-form.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, IdParams, openAdmin, postAdmin, SECTIONS, sentence, type Staffed } from "./page.ts";
import { acct, reportDetails } from "./report-view.ts";

const SECTION = SECTIONS.reports;

export const adminReportPages = (deps: Deps) => {
  const listItem = ({ report, account, target, statuses }: LoadedAdminReport) =>
    `<li><a href="${SECTION.path}/${publicId(report.id)}">Report ${publicId(report.id)}</a>: ${e(acct(account.account))} reported ${e(acct(target.account))} (${e(report.category)}, ${statuses.length} status${statuses.length === 1 ? "" : "es"})${report.comment ? `: “${e([...report.comment].slice(0, 120).join(""))}”` : ""}</li>`;

  const list = (staffed: Staffed, resolved: boolean) => {
    const records = reportsPage(deps.store, { resolved }, boundedPageQuery({}, ADMIN_REPORT_LIMIT, ADMIN_REPORT_MAX));
    const loaded = loadAdminReports(deps, staffed.staff.account.id, records).reports;
    const switcher = resolved ? `<p><a href="${SECTION.path}">Unresolved reports</a> · Resolved reports</p>` : `<p>Unresolved reports · <a href="${SECTION.path}?resolved=1">Resolved reports</a></p>`;
    const items = loaded.length ? `<ul>${loaded.map(listItem).join("\n")}</ul>` : `<p>No ${resolved ? "resolved" : "unresolved"} report.</p>`;
    return adminPage(deps, staffed, 200, SECTION, `${switcher}${items}`);
  };

  /** A report with its accounts; a report whose accounts are gone is a 404, as in the API. */
  const findLoaded = (staffed: Staffed, rawId: string): LoadedAdminReport => {
    const loaded = loadAdminReports(deps, staffed.staff.account.id, [findReport(deps.store, rawId)]).reports[0];
    if (!loaded) throw new NotFound();
    return loaded;
  };

  /** One report with its forms. */
  const detail = async (staffed: Staffed, rawId: string, status = 200, notice = "") => {
    const found = await attempt(() => findLoaded(staffed, rawId));
    if ("error" in found) return notFound(staffed, found.error);
    const loaded = found.ok;
    const path = `${SECTION.path}/${publicId(loaded.report.id)}`;
    const csrf = staffed.browser.csrf;
    const toggle = loaded.report.actionTakenAt === null ? form(`${path}/resolve`, csrf, "", "Resolve without action") : form(`${path}/reopen`, csrf, "", "Reopen");
    const act = `<h2>Act on ${e(acct(loaded.target.account))}</h2>${actionForm(`${path}/action`, csrf, loaded.target.account)}`;
    return adminPage(deps, staffed, status, SECTION, `${reportDetails(loaded)}${toggle}${act}`, notice, `Report ${publicId(loaded.report.id)}`);
  };
  const notFound = (staffed: Staffed, error: ApiError) => adminPage(deps, staffed, 404, SECTION, `<p><a href="${SECTION.path}">All reports</a></p>`, sentence(error));

  const change = (run: (staffed: Staffed, id: string, body: typeof ActionBody.static) => Promise<unknown>, done: (body: typeof ActionBody.static) => string) =>
    async ({ body, params, request }: { body: typeof ActionBody.static; params: { id: string }; request: Request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const result = await attempt(() => run(staffed, params.id, body));
      if ("error" in result) return result.error.status === 404 ? notFound(staffed, result.error) : detail(staffed, params.id, result.error.status, sentence(result.error));
      return detail(staffed, params.id, 200, done(body));
    };
  const formOptions = (summary: string, body: typeof ActionBody | ReturnType<typeof t.Object> = t.Object({ ...CSRF_FIELD })) => ({
    params: IdParams,
    body,
    transform: onlyStringBody,
    response: { 200: Html("the report again with a notice"), ...ADMIN_FORM_ANSWERS },
    detail: { summary, tags: ["web"] },
  });

  return new Elysia({ name: "admin-report-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ query, request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : list(staffed, query.resolved === "1" || query.resolved === "true");
    }, {
      query: t.Object({ resolved: Field('"1": resolved reports instead of unresolved ones') }),
      transform: onlyStringQuery,
      response: { 200: Html(`the newest ${ADMIN_REPORT_LIMIT} unresolved (or resolved) reports`), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Reports page (HTML; manage_reports)", tags: ["web"] },
    })
    .get(`${SECTION.path}/:id`, async ({ params, request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : detail(staffed, params.id);
    }, {
      params: IdParams,
      response: { 200: Html("the report, its reported statuses and its forms"), ...ADMIN_PAGE_REFUSALS, 404: Html("no such report") },
      detail: { summary: "One report (HTML; manage_reports)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/resolve`, change((s, id) => resolveReport(deps, id, s.staff.account.id), () => "The report is resolved."), formOptions("Resolve a report (form; as POST /api/v1/admin/reports/:id/resolve)"))
    .post(`${SECTION.path}/:id/reopen`, change((_s, id) => reopenReport(deps, id), () => "The report is open again."), formOptions("Reopen a report (form; as POST /api/v1/admin/reports/:id/reopen)"))
    .post(
      `${SECTION.path}/:id/action`,
      change(async (s, id, body) => {
        const report = findReport(deps.store, id);
        await performAccountAction(deps, s.staff, report.targetAccountId, actionInput(body, report.id));
      }, (body) => `${ACTION_DONE[body.type ?? ""] ?? "Done."} The report is resolved.`),
      formOptions("Act on the reported account and resolve the report (form; as POST /api/v1/admin/accounts/:id/action with report_id)", ActionBody),
    );
};
