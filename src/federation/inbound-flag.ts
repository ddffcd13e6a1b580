// An incoming Flag (docs/federation.md, "Reports from other servers"), read as Mastodon's
// ActivityPub::Activity::Flag reads it: its objects are local accounts and local statuses; for each local
// account named (or author of a status named), one report is filed through the same core as the API
// (domain/reports/create.ts) with the sender as reporter (Mastodon sends its instance actor, an Application:
// the reporter is that server, as anonymous as it chose to be), the Flag's `content` as comment (plain text,
// 1,000 characters at most) and the named statuses of that account. Staff hear of it by the usual
// `admin.report` notification. Ignored: a Flag from a domain whose block has `reject_reports`, objects that are
// not ours or deleted, and a Flag whose id is already an open report. As on Mastodon, a status's visibility is
// not checked: the report shows the reporter nothing, and the reporting server's users may have received it.
import type { Flag } from "@fedify/vocab";
import type { InboxContext } from "@fedify/fedify";
import { plainText } from "../lib/sanitize.ts";
import { domainBlockFor } from "../domain/admin/domain-blocks.ts";
import { recordReport, REPORT_LIMITS } from "../domain/reports/create.ts";
import { statusByUri } from "../domain/statuses/remote.ts";
import { getAccount } from "../store/accounts.ts";
import { getReport, openReportIdsAbout } from "../store/reports.ts";
import type { FederationDeps } from "./context.ts";
import { localAccountOf, remoteSender } from "./inbound-accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** How many objects of one Flag are looked at: a report names a few statuses, not thousands. */
const MAX_OBJECTS = 100;

/** The local accounts a Flag names, each with the named statuses of theirs the reporter may see. */
function flagged(deps: FederationDeps, ctx: InboxContext<void>, ids: URL[]): Map<string, StatusRecord[]> {
  const targets = new Map<string, StatusRecord[]>();
  for (const id of ids.slice(0, MAX_OBJECTS)) {
    const account = localAccountOf(ctx, deps, id);
    if (account) {
      if (!targets.has(account.id)) targets.set(account.id, []);
      continue;
    }
    const status = statusByUri(deps, id.href);
    if (!status?.local || status.deletedAt) continue;
    const list = targets.get(status.accountId) ?? [];
    list.push(status);
    targets.set(status.accountId, list);
  }
  return targets;
}

/** Whether a report with this Flag id is already open about the account (a Flag replayed after a day). */
function alreadyFiled(deps: FederationDeps, targetId: string, uri: string): boolean {
  return openReportIdsAbout(deps.store, targetId).some((id) => getReport(deps.store, id)?.uri === uri);
}

export async function onFlag(deps: FederationDeps, ctx: InboxContext<void>, activity: Flag): Promise<void> {
  const reporter = await remoteSender(deps, activity.actorId);
  if (!reporter?.domain || domainBlockFor(deps.store, reporter.domain.split(":")[0]!)?.rejectReports) return;
  const uri = activity.id?.href ?? null;
  const comment = [...plainText(activity.content?.toString() ?? "")].slice(0, REPORT_LIMITS.maxCommentLength).join("");
  for (const [targetId, statuses] of flagged(deps, ctx, activity.objectIds)) {
    const target = getAccount(deps.store, targetId);
    if (!target || target.domain !== null || target.suspended || (uri && alreadyFiled(deps, targetId, uri))) continue;
    const draft = { reporter, target, statuses, comment, category: "other" as const, ruleIds: null, forward: false, applicationId: null, uri };
    await recordReport(deps, draft, "remote");
  }
}
