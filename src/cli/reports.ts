// `warren reports list [--unresolved]`: the reports filed on this server, newest first, one per line
// (docs/reports.md). tootctl has no reports command (Mastodon handles them in the admin interface and the
// admin API, as Warren does through /api/v1/admin/reports); this is the operator's plain view of them.
// Exit codes: 0 ok, 64 usage.
import type { Deps } from "../deps.ts";
import { allReports, type ReportSummary } from "../domain/reports/admin.ts";
import { publicId } from "../lib/ids.ts";
import { parseArgs, runSubcommand, UsageError } from "./command.ts";

const USAGE = `usage:
  warren reports list [--unresolved]
`;

const COMMENT_WIDTH = 80;

/** The comment on one line, shortened to COMMENT_WIDTH characters. */
function oneLine(comment: string): string {
  const flat = comment.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > COMMENT_WIDTH ? `${chars.slice(0, COMMENT_WIDTH - 1).join("")}…` : flat;
}

/** id, filed at, open|resolved, category, reporter, reported account, statuses, comment: tab-separated. */
function reportLine({ report, reporter, target }: ReportSummary): string {
  return [
    publicId(report.id),
    new Date(report.createdAt).toISOString(),
    report.actionTakenAt === null ? "open" : "resolved",
    report.category,
    reporter ?? "(gone)",
    target ?? "(gone)",
    `statuses=${report.statusIds.length}`,
    oneLine(report.comment),
  ].join("\t");
}

async function list(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, [], ["unresolved"]);
  if (parsed.positional.length) throw new UsageError("reports list takes no arguments");
  const reports = allReports(deps.store, parsed.flags.has("unresolved"));
  for (const summary of reports) process.stdout.write(`${reportLine(summary)}\n`);
  process.stderr.write(`${reports.length} report${reports.length === 1 ? "" : "s"}\n`);
}

export function runReportsCommand(args: string[]): Promise<number> {
  return runSubcommand("reports", USAGE, { list }, args);
}
