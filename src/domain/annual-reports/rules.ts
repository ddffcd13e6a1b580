// Which years have a report, and who may have one (docs/annual-reports.md). Mastodon 4.5 offers a report for the
// current campaign only (its year, from 10 to 31 December, in UTC); Warren also offers every year that has
// ended, since a self-hosted server's users may ask later. An account is eligible, as Mastodon 4.5 decides
// (AnnualReport#eligible?: every source agrees), when in that year it posted at least one public or unlisted
// status (TopStatuses) and at least one status with a hashtag (TopHashtags).
import { idAtTime } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { accountStatusIdsIn, getAnnualReport, getGeneration, type IdRange } from "../../store/annual-reports.ts";
import { getStatus } from "../../store/statuses.ts";

/** The first day of December on which the current year's report may be generated (Mastodon's campaign). */
export const CAMPAIGN_START_DAY = 10;
/** A generation asked for this long ago and not finished is taken for lost (its job gave up): it may be asked again. */
export const GENERATION_STALE_MS = 30 * 60_000;
/** The eligibility check reads at most this many of the year's statuses; an account with more is eligible. */
export const ELIGIBILITY_SCAN_LIMIT = 5_000;
const SCAN_BATCH = 500;
/** Ids (lib/ids.ts) run out in the 25th century; years are 4 digits. */
const FIRST_YEAR = 1970;

export type ReportState = "available" | "generating" | "eligible" | "ineligible";

/** A year as a client writes it in the path; null for anything that is not one. */
export function parseYear(raw: string): number | null {
  if (!/^\d{1,4}$/.test(raw)) return null;
  const year = Number(raw);
  return year >= FIRST_YEAR ? year : null;
}

/** [1 January, 1 January of the next year) in UTC, in ms. */
export function yearSpan(year: number): { startMs: number; endMs: number } {
  return { startMs: Date.UTC(year, 0, 1), endMs: Date.UTC(year + 1, 0, 1) };
}

/** The ids of a time span [startMs, endMs). */
export function idRange(startMs: number, endMs: number): IdRange {
  return { fromId: idAtTime(startMs), toId: idAtTime(endMs) };
}

export function yearRange(year: number): IdRange {
  const { startMs, endMs } = yearSpan(year);
  return idRange(startMs, endMs);
}

/** The ids of a month (1–12) of a year, UTC. */
export function monthRange(year: number, month: number): IdRange {
  return idRange(Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1));
}

/** The current campaign's year (Mastodon's AnnualReport.current_campaign), or null outside 10–31 December. */
export function currentCampaign(now: number): number | null {
  const date = new Date(now);
  return date.getUTCMonth() === 11 && date.getUTCDate() >= CAMPAIGN_START_DAY ? date.getUTCFullYear() : null;
}

/** May a report of `year` be generated now: a year that has ended, or the current campaign. */
export function yearIsOpen(year: number, now: number): boolean {
  return year < new Date(now).getUTCFullYear() || currentCampaign(now) === year;
}

/**
 * Did the account, in that year, post a public or unlisted status (a reblog counts, as on Mastodon) and a
 * status with a hashtag? Reads the year's statuses oldest first until both are found, at most
 * ELIGIBILITY_SCAN_LIMIT of them; an account that posted more than that is taken as eligible.
 */
export function activeEnough(store: Store, accountId: string, year: number): boolean {
  const range = yearRange(year);
  let distributable = false;
  let tagged = false;
  let read = 0;
  let after: string | null = null;
  while (read < ELIGIBILITY_SCAN_LIMIT) {
    const ids = accountStatusIdsIn(store, accountId, range, after, SCAN_BATCH);
    for (const id of ids) {
      const status = getStatus(store, id);
      if (!status || status.deletedAt) continue;
      if (status.visibility === "public" || status.visibility === "unlisted") distributable = true;
      if (!status.reblogOfId && status.tags.length > 0) tagged = true;
      if (distributable && tagged) return true;
    }
    if (ids.length < SCAN_BATCH) return false;
    read += ids.length;
    after = ids[ids.length - 1]!;
  }
  return true;
}

/** Is a generation asked for and still under way (not finished, not given up on)? */
export function generationRunning(store: Store, accountId: string, year: number, now: number): boolean {
  const generation = getGeneration(store, accountId, year);
  return !!generation && now - generation.requestedAt < GENERATION_STALE_MS;
}

/** Mastodon 4.5's AnnualReport#state: available, generating, eligible or ineligible. */
export function reportState(store: Store, accountId: string, year: number | null, now: number): ReportState {
  if (year === null) return "ineligible";
  if (getAnnualReport(store, accountId, year)) return "available";
  if (generationRunning(store, accountId, year, now)) return "generating";
  return yearIsOpen(year, now) && activeEnough(store, accountId, year) ? "eligible" : "ineligible";
}
