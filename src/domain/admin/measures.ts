// POST /api/v1/admin/measures (Mastodon's Admin::Metrics::Measure, the admin dashboard's figures): for each key
// asked for that Warren keeps the facts of, a total over [start_at, end_at], the total of the period of the same
// length just before, and a value per day. Served keys:
//   new_users         local users who signed up that day
//   active_users      distinct local users issued a token (a sign-in) that day, as /api/v1/instance/activity's
//                     logins
//   opened_reports    reports filed that day
//   resolved_reports  reports resolved that day
// Other Mastodon keys (interactions, tag_*, instance_*) are left out of the answer: Warren keeps no daily
// record of them, and a figure it cannot back is not invented.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { idAtTime } from "../../lib/ids.ts";
import { localMembers, userTokenIssues } from "../../store/instance.ts";
import { reportsFiledBetween, resolvedReports } from "../../store/reports.ts";

export const MEASURE_KEYS = ["new_users", "active_users", "opened_reports", "resolved_reports"] as const;
type MeasureKey = (typeof MEASURE_KEYS)[number];
const DAY_MS = 86_400_000;
/** A dashboard asks for weeks or months; longer spans are refused rather than walked. */
const MAX_DAYS = 400;

export interface Measure {
  key: MeasureKey;
  total: number;
  previousTotal: number;
  /** one per day from the start, its UTC midnight and the day's value */
  data: { date: number; value: number }[];
}

/** Each event of a key as [time, who] (who: counted once per day for distinct measures, else null). */
function events(deps: Deps, key: MeasureKey, from: number, to: number): Iterable<[number, string | null]> {
  const { store } = deps;
  switch (key) {
    case "new_users":
      return (function* () {
        for (const { user } of localMembers(store)) if (user.createdAt >= from && user.createdAt < to) yield [user.createdAt, null];
      })();
    case "active_users":
      return (function* () {
        for (const { accountId, createdAt } of userTokenIssues(store)) {
          if (createdAt >= from && createdAt < to) yield [createdAt, accountId];
        }
      })();
    case "opened_reports":
      return (function* () {
        for (const report of reportsFiledBetween(store, idAtTime(from), idAtTime(to))) yield [report.createdAt, null];
      })();
    case "resolved_reports":
      return (function* () {
        for (const r of resolvedReports(store)) {
          if (r.actionTakenAt !== null && r.actionTakenAt >= from && r.actionTakenAt < to) yield [r.actionTakenAt, null];
        }
      })();
  }
}

/** Per-day counts over [from, to) (days of `DAY_MS` from `from`). */
function perDay(deps: Deps, key: MeasureKey, from: number, days: number): number[] {
  const counts = new Array<number>(days).fill(0);
  const seen = new Set<string>();
  for (const [at, who] of events(deps, key, from, from + days * DAY_MS)) {
    const day = Math.floor((at - from) / DAY_MS);
    if (who !== null) {
      if (seen.has(`${day}:${who}`)) continue;
      seen.add(`${day}:${who}`);
    }
    counts[day]! += 1;
  }
  return counts;
}

export function adminMeasures(deps: Deps, keys: readonly string[], startAt: string, endAt: string): Measure[] {
  const start = Date.parse(startAt);
  const end = Date.parse(endAt);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) {
    throw new Unprocessable("Validation failed: start_at and end_at must be dates, the end not before the start");
  }
  const from = Math.floor(start / DAY_MS) * DAY_MS;
  const days = Math.floor(end / DAY_MS) - from / DAY_MS + 1;
  if (days > MAX_DAYS) throw new Unprocessable(`Validation failed: at most ${MAX_DAYS} days`);
  const served = MEASURE_KEYS.filter((key) => keys.includes(key));
  return served.map((key) => {
    const counts = perDay(deps, key, from, days);
    const previous = perDay(deps, key, from - days * DAY_MS, days);
    // Distinct measures count a user once over the period too, as Mastodon's totals do.
    const total = key === "active_users" ? distinct(deps, key, from, days) : counts.reduce((a, b) => a + b, 0);
    const previousTotal = key === "active_users" ? distinct(deps, key, from - days * DAY_MS, days) : previous.reduce((a, b) => a + b, 0);
    return { key, total, previousTotal, data: counts.map((value, i) => ({ date: from + i * DAY_MS, value })) };
  });
}

function distinct(deps: Deps, key: MeasureKey, from: number, days: number): number {
  const who = new Set<string | null>();
  for (const [, id] of events(deps, key, from, from + days * DAY_MS)) who.add(id);
  return who.size;
}
