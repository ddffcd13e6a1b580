// POST /api/v1/admin/retention (Mastodon's Admin::Metrics::Retention): for each cohort of local users who
// signed up in a day (or month) of [start_at, end_at], how many of them were active in each later period up to
// end_at, and what share of the cohort that is. Active: issued a token (a sign-in) in the period, as the
// measures' active_users count it.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { localMembers, userTokenIssues } from "../../store/instance.ts";

export type RetentionFrequency = "day" | "month";

export interface Cohort {
  period: number;
  frequency: RetentionFrequency;
  data: { date: number; rate: number; value: number }[];
}

const DAY_MS = 86_400_000;
/** Cohorts answered at most (400 days, or 400 months). */
const MAX_PERIODS = 400;

/** The start (UTC) of the period holding `at`, and of the one after. */
function periodStart(at: number, frequency: RetentionFrequency): number {
  if (frequency === "day") return Math.floor(at / DAY_MS) * DAY_MS;
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextPeriod(start: number, frequency: RetentionFrequency): number {
  if (frequency === "day") return start + DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export function adminRetention(deps: Deps, startAt: string, endAt: string, frequency: RetentionFrequency): Cohort[] {
  const start = Date.parse(startAt);
  const end = Date.parse(endAt);
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) {
    throw new Unprocessable("Validation failed: start_at and end_at must be dates, the end not before the start");
  }
  const periods: number[] = [];
  for (let p = periodStart(start, frequency); p <= end && periods.length <= MAX_PERIODS; p = nextPeriod(p, frequency)) periods.push(p);
  if (periods.length > MAX_PERIODS) throw new Unprocessable(`Validation failed: at most ${MAX_PERIODS} periods`);
  const until = nextPeriod(periods.at(-1)!, frequency);
  const cohortOf = new Map<string, number>();
  for (const { user } of localMembers(deps.store)) {
    if (user.createdAt >= periods[0]! && user.createdAt < until) cohortOf.set(user.accountId, periodStart(user.createdAt, frequency));
  }
  // cohort start → period start → active users
  const active = new Map<number, Map<number, Set<string>>>();
  for (const { accountId, createdAt } of userTokenIssues(deps.store)) {
    const cohort = cohortOf.get(accountId);
    if (cohort === undefined || createdAt < cohort || createdAt >= until) continue;
    const byPeriod = active.get(cohort) ?? active.set(cohort, new Map()).get(cohort)!;
    const period = periodStart(createdAt, frequency);
    (byPeriod.get(period) ?? byPeriod.set(period, new Set()).get(period)!).add(accountId);
  }
  const sizes = new Map<number, number>();
  for (const cohort of cohortOf.values()) sizes.set(cohort, (sizes.get(cohort) ?? 0) + 1);
  return periods.map((cohort) => {
    const size = sizes.get(cohort) ?? 0;
    const data = periods.filter((p) => p >= cohort).map((date) => {
      const value = active.get(cohort)?.get(date)?.size ?? 0;
      return { date, value, rate: size === 0 ? 0 : value / size };
    });
    return { period: cohort, frequency, data };
  });
}
