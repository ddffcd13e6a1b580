// Filing a report (POST /api/v1/reports, API.md §7.4). As on Mastodon: the reported account must exist and
// not be suspended, every status named must be one of its statuses the reporter can see (all 404 otherwise,
// before any 422); `rule_ids[]` makes the category `violation` whatever was sent and must name this server's
// rules; the comment holds at most 1,000 characters. Staff hear of it through the `report.created` event
// (domain/reports/notify-staff.ts). `forward` is kept only for remote accounts (`forwarded`); sending the
// anonymised `Flag` to their server is federation's subscriber of the same event (federation/flags.ts).
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { recordEvent, type Origin } from "../events.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { findTargetAccount } from "../relationships/target.ts";
import { putReport } from "../../store/reports.ts";
import { getRule } from "../../store/rules.ts";
import { getStatus } from "../../store/statuses.ts";
import type { Store } from "../../store/db.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { ReportCategory, ReportRecord } from "../../model/moderation.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export const REPORT_LIMITS = {
  /** Mastodon's Report validation (local reports). */
  maxCommentLength: 1000,
} as const;

/** forward_to_domains[] kept: more than the reported statuses could reply to is never needed. */
const MAX_FORWARD_DOMAINS = 100;

export const REPORT_CATEGORIES: readonly ReportCategory[] = ["spam", "legal", "violation", "other"];

export interface ReportInput {
  accountId?: string;
  statusIds: string[];
  /** Collections (4.6) do not exist here yet: any id is unknown. */
  collectionIds: string[];
  comment?: string;
  forward: boolean;
  /** Mastodon's forward_to_domains[]: servers of the reported statuses' reply targets to forward to as well. */
  forwardToDomains?: string[];
  category?: string;
  ruleIds: string[];
}

/** What a report says, with its records resolved: what the API and (later) an incoming `Flag` both hand the core. */
export interface ReportDraft {
  reporter: AccountRecord;
  target: AccountRecord;
  statuses: StatusRecord[];
  comment: string;
  category: ReportCategory;
  ruleIds: string[] | null;
  forward: boolean;
  forwardToDomains?: string[];
  applicationId: string | null;
  uri: string | null;
}

function validationError(field: string, error: string, description: string, label: string): Unprocessable {
  return new Unprocessable(`Validation failed: ${label} ${description}`, { [field]: [{ error, description }] });
}

export function validCategory(raw: string | undefined, fallback: ReportCategory): ReportCategory {
  if (raw === undefined || raw === "") return fallback;
  if (!(REPORT_CATEGORIES as readonly string[]).includes(raw)) {
    throw validationError("category", "ERR_INCLUSION", "is not included in the list", "Category");
  }
  return raw as ReportCategory;
}

/** Rule ids as stored (duplicates once); 422 unless every one is a rule of this server. */
export function validRuleIds(store: Store, raw: readonly string[]): string[] {
  const ids = [...new Set(raw.map((id) => normaliseId(id)))];
  if (ids.some((id) => id === null || !getRule(store, id))) {
    throw validationError("rule_ids", "ERR_INVALID", "does not reference valid rules", "Rule ids");
  }
  return ids as string[];
}

function validComment(raw: string | undefined): string {
  const comment = raw ?? "";
  if ([...comment].length > REPORT_LIMITS.maxCommentLength) {
    const description = `is too long (maximum is ${REPORT_LIMITS.maxCommentLength} characters)`;
    throw validationError("comment", "ERR_TOO_LONG", description, "Comment");
  }
  return comment;
}

/** The target's statuses named in the report, each one the reporter can see; 404 for anything else. */
function reportedStatuses(store: Store, reporter: AccountRecord, target: AccountRecord, rawIds: readonly string[]): StatusRecord[] {
  const out = new Map<string, StatusRecord>();
  for (const raw of rawIds) {
    const id = normaliseId(raw);
    const status = id ? getStatus(store, id) : undefined;
    if (!status || status.accountId !== target.id || !canSeeStatus(store, reporter.id, status)) throw new NotFound();
    out.set(status.id, status);
  }
  return [...out.values()];
}

/** POST /api/v1/reports: the token holder reports an account. */
export async function fileReport(deps: Deps, viewer: UserViewer, input: ReportInput): Promise<ReportRecord> {
  const { store } = deps;
  if (!input.accountId) throw new NotFound();
  const target = findTargetAccount(store, input.accountId);
  const statuses = reportedStatuses(store, viewer.account, target, input.statusIds);
  if (input.collectionIds.length > 0) throw new NotFound();
  const comment = validComment(input.comment);
  const ruleIds = input.ruleIds.length > 0 ? validRuleIds(store, input.ruleIds) : null;
  const category = ruleIds ? "violation" : validCategory(input.category, "other");
  return recordReport(deps, {
    reporter: viewer.account,
    target,
    statuses,
    comment,
    category,
    ruleIds,
    forward: input.forward,
    forwardToDomains: input.forwardToDomains,
    applicationId: viewer.app.id,
    uri: null,
  });
}

/**
 * The core: stores the report and records `report.created` in the same write. `forwarded` only ever holds
 * for a remote target. Remote reports (an incoming `Flag`) will come through here with origin `remote`.
 */
export async function recordReport(deps: Pick<Deps, "store" | "jobs">, draft: ReportDraft, origin: Origin = "local", now = Date.now()): Promise<ReportRecord> {
  const report: ReportRecord = {
    v: 1,
    id: newId(now),
    accountId: draft.reporter.id,
    targetAccountId: draft.target.id,
    statusIds: draft.statuses.map((status) => status.id),
    ruleIds: draft.ruleIds,
    comment: draft.comment,
    category: draft.category,
    forwarded: draft.forward && draft.target.domain !== null,
    applicationId: draft.applicationId,
    uri: draft.uri,
    assignedAccountId: null,
    actionTakenAt: null,
    actionTakenByAccountId: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.write(() => {
    putReport(deps.store, report);
    const forwardTo = report.forwarded && draft.forwardToDomains?.length ? { forwardToDomains: draft.forwardToDomains.slice(0, MAX_FORWARD_DOMAINS) } : {};
    recordEvent(deps, "report.created", { reportId: report.id, accountId: report.accountId, targetAccountId: report.targetAccountId, ...forwardTo }, origin, now);
  });
  return report;
}
