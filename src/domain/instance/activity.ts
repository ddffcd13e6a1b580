// Weekly activity (GET /api/v1/instance/activity): the last 12 weeks, newest first, weeks starting Monday
// 00:00 UTC as in Mastodon. Counted from stored records, so it is right after a restart too:
//   statuses       local statuses (not reblogs) posted that week and not deleted
//   logins         distinct local users who signed in (were issued a token) that week
//   registrations  local users who signed up that week
import type { Deps } from "../../deps.ts";
import { idAtTime } from "../../lib/ids.ts";
import { accountStatusesFrom, localMembers, userTokenIssues } from "../../store/instance.ts";

const WEEK_MS = 7 * 86_400_000;
export const ACTIVITY_WEEKS = 12;

export interface ActivityWeek {
  /** start of the week, unix ms */
  week: number;
  statuses: number;
  logins: number;
  registrations: number;
}

/** Monday 00:00 UTC of the week containing `ms`. */
export function weekStart(ms: number): number {
  const day = new Date(ms);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return midnight - sinceMonday * 86_400_000;
}

export function weeklyActivity(deps: Deps, now = Date.now()): ActivityWeek[] {
  const current = weekStart(now);
  const weeks: ActivityWeek[] = [];
  for (let i = 0; i < ACTIVITY_WEEKS; i++) weeks.push({ week: current - i * WEEK_MS, statuses: 0, logins: 0, registrations: 0 });
  const oldest = weeks[weeks.length - 1]!.week;
  /** Index into `weeks` of the week containing `ms`, or -1 outside the 12 weeks. */
  const indexOf = (ms: number) => (ms < oldest || ms >= current + WEEK_MS ? -1 : Math.round((current - weekStart(ms)) / WEEK_MS));

  const signedIn = weeks.map(() => new Set<string>());
  for (const { accountId, createdAt } of userTokenIssues(deps.store)) {
    const i = indexOf(createdAt);
    if (i >= 0) signedIn[i]!.add(accountId);
  }
  weeks.forEach((week, i) => (week.logins = signedIn[i]!.size));

  const fromId = idAtTime(oldest);
  for (const { user, account } of localMembers(deps.store)) {
    const registered = indexOf(user.createdAt);
    if (registered >= 0) weeks[registered]!.registrations++;
    for (const status of accountStatusesFrom(deps.store, account.id, fromId)) {
      if (!status.local || status.reblogOfId || status.deletedAt !== null) continue;
      const i = indexOf(status.createdAt);
      if (i >= 0) weeks[i]!.statuses++;
    }
  }
  return weeks;
}
