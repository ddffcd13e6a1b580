// Asking for a report, generating it in a job, and marking it read (docs/annual-reports.md). One report per
// account and year: asking while one exists or is being generated starts nothing, and the job writes the report
// only if none exists yet, in the same write as its `annual_report` notification.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getAnnualReport, getGeneration, putAnnualReport, putGeneration, removeGeneration } from "../../store/annual-reports.ts";
import { insertNotification } from "../../store/notifications.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import { recordEvent } from "../events.ts";
import { computeAnnualReport, type Batching } from "./compute.ts";
import { activeEnough, generationRunning, parseYear, yearIsOpen } from "./rules.ts";
import type { AnnualReportRecord } from "../../model/instance.ts";

/**
 * `exists`: there is a report already; `refused`: not a year with reports, or the account is not eligible
 * (both answered 200 {} as Mastodon does); `generating`: a generation is under way; `started`: one was
 * started now (both answered 202).
 */
export type GenerateOutcome = "exists" | "refused" | "generating" | "started";

/** POST /api/v1/annual_reports/:year/generate. */
export async function requestAnnualReport(deps: Pick<Deps, "store" | "jobs">, accountId: string, rawYear: string, now = Date.now()): Promise<GenerateOutcome> {
  const { store } = deps;
  const year = parseYear(rawYear);
  if (year === null) return "refused";
  if (getAnnualReport(store, accountId, year)) return "exists";
  if (generationRunning(store, accountId, year, now)) return "generating";
  if (!yearIsOpen(year, now) || !activeEnough(store, accountId, year)) return "refused";
  return store.write(() => {
    // Checked again inside the write: two requests racing start one generation.
    if (getAnnualReport(store, accountId, year)) return "exists";
    if (generationRunning(store, accountId, year, now)) return "generating";
    putGeneration(store, accountId, year, { requestedAt: now });
    recordEvent(deps, "annual_report.requested", { accountId, year }, "local", now);
    return "started";
  });
}

/**
 * The `annual_reports.generate` subscriber: computes the report and stores it with its notification, unless
 * the account is gone or the report exists (a job may run twice); either way the generation is over.
 */
export async function generateAnnualReport(
  ctx: { store: Store; jobs: JobEnqueuer },
  request: { accountId: string; year: number },
  batching?: Batching,
): Promise<void> {
  const { store } = ctx;
  const { accountId, year } = request;
  const finished = async () => {
    if (getGeneration(store, accountId, year)) await store.write(() => removeGeneration(store, accountId, year));
  };
  if (getAnnualReport(store, accountId, year) || !getAccount(store, accountId)) return finished();
  const data = await computeAnnualReport(store, accountId, year, batching);
  const now = Date.now();
  await store.write(() => {
    removeGeneration(store, accountId, year);
    if (getAnnualReport(store, accountId, year) || !getAccount(store, accountId)) return;
    const report: AnnualReportRecord = { v: 1, accountId, year, schemaVersion: 1, data, createdAt: now, viewedAt: null };
    putAnnualReport(store, report);
    // Mastodon's annual_report notification comes from the account itself (no block or mute applies).
    const id = newId(now);
    insertNotification(store, {
      v: 1,
      id,
      type: "annual_report",
      recipientId: accountId,
      fromAccountId: accountId,
      statusId: null,
      annualReportYear: year,
      createdAt: now,
    });
    recordEvent(ctx, "notification.created", { recipientId: accountId, notificationId: id }, "local", now);
  });
}

/** POST /api/v1/annual_reports/:year/read: 404 unless the account has that report. */
export async function markAnnualReportRead(store: Store, accountId: string, rawYear: string, now = Date.now()): Promise<void> {
  const year = parseYear(rawYear);
  const found = year === null ? undefined : getAnnualReport(store, accountId, year);
  if (!found) throw new NotFound();
  await store.write(() => {
    const report = getAnnualReport(store, accountId, found.year);
    if (report) putAnnualReport(store, { ...report, viewedAt: now });
  });
}
