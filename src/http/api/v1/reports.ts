// POST /api/v1/reports (API.md §7.4): report an account, optionally with some of its statuses, a comment, a
// category and the server rules it breaks. Answers the Report entity; staff are notified by a job.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NotFound } from "../../../lib/errors.ts";
import { fileReport, REPORT_LIMITS } from "../../../domain/reports/create.ts";
import { loadReport } from "../../../domain/reports/load.ts";
import { presentReport, ReportSchema } from "../../../entities/report.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { ErrorBody, Flag, toBool } from "../../schemas.ts";

const Ids = (description: string) => t.Optional(t.Union([t.String(), t.Array(t.String())], { description }));

const ReportBody = t.Object({
  account_id: t.Optional(t.String({ description: "Required: the account to report (unknown or suspended: 404)" })),
  status_ids: Ids("Statuses of that account the reporter can see (status_ids[]=…); any other: 404"),
  collection_ids: Ids("Collections (4.6): not supported, any id is 404"),
  comment: t.Optional(t.String({ description: `At most ${REPORT_LIMITS.maxCommentLength} characters` })),
  forward: t.Optional(Flag({ description: "Forward to the remote account's server (remote accounts only)" })),
  forward_to_domains: Ids("With forward: also the servers, among these domains, of accounts the reported statuses replied to (forward_to_domains[]=…; default: the account's own)"),
  category: t.Optional(t.String({ description: "spam, legal, violation or other (default); violation whenever rule_ids[] is given" })),
  rule_ids: Ids("Ids of this server's rules (rule_ids[]=…); others: 422"),
});

const list = (value: string | string[] | undefined): string[] =>
  (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter((id) => id !== "");

export const reportRoutes = (deps: Deps) =>
  new Elysia({ name: "report-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/reports",
      async ({ viewer, body }) => {
        const report = await fileReport(deps, viewer, {
          accountId: body.account_id,
          statusIds: list(body.status_ids),
          collectionIds: list(body.collection_ids),
          comment: body.comment,
          forward: toBool(body.forward),
          forwardToDomains: body.forward_to_domains === undefined ? undefined : list(body.forward_to_domains),
          category: body.category,
          ruleIds: list(body.rule_ids),
        });
        const loaded = loadReport(deps, report);
        if (!loaded) throw new NotFound();
        return presentReport(deps.config, loaded, viewer.account.id);
      },
      {
        auth: ["write:reports"],
        body: ReportBody,
        response: { 200: ReportSchema, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody, 429: ErrorBody },
        detail: { summary: "Report an account to the moderators", tags: ["reports"] },
      },
    );
