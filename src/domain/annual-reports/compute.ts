// Computing a report (docs/annual-reports.md): Mastodon's schema 1 sources (app/lib/annual_report/*.rb) over
// the account's statuses and reblogs of the year, its favourites of the year, its follows both ways and the
// statuses and followers of every local account (percentiles). Everything is read in batches of BATCH rows,
// each batch in its own read snapshot, with a pause between batches so that the job shares its worker.
import type { Store } from "../../store/db.ts";
import {
  accountFavouritesIn,
  accountStatusIdsIn,
  countAccountStatusesIn,
  countFollowersIn,
  countFollowingIn,
  localAccountIdsAfter,
  type IdRange,
} from "../../store/annual-reports.ts";
import { getApp } from "../../store/oauth.ts";
import { getStatus } from "../../store/statuses.ts";
import { favouriteIdOf } from "../../store/statuses-interactions.ts";
import { monthRange, yearRange } from "./rules.ts";
import type { AccountCount, AnnualReportData, Archetype, MonthCounts, NameCount } from "../../model/instance.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Rows read per batch. */
export const BATCH = 1_000;
/** Mastodon's AnnualReport::Archetype::AVERAGE_PER_YEAR: posts (with replies and reblogs) of an average active user in 2023. */
export const AVERAGE_PER_YEAR = 113;
/** Sizes and thresholds of Mastodon's sources: a hashtag, account or pair counts from 2 uses on. */
export const TOP_HASHTAGS = 40;
export const TOP_INTERACTED_ACCOUNTS = 40;
export const TOP_REBLOGGED_ACCOUNTS = 10;
export const TOP_APPS = 10;
const MINIMUM_COUNT = 1;

export type Pause = () => Promise<void>;
const nextTurn: Pause = () => new Promise((resolve) => setImmediate(resolve));

/** How the reads are split: rows per batch, and what happens between two batches (the next event-loop turn). */
export interface Batching {
  batch: number;
  pause: Pause;
}

const DEFAULT_BATCHING: Batching = { batch: BATCH, pause: nextTurn };

class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }
  /** Most counted first (ties: key order), only counts above `minimum`, at most `limit`. */
  top(limit: number, minimum = 0): [string, number][] {
    return [...this.counts]
      .filter(([, count]) => count > minimum)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, limit);
  }
}

interface Candidate {
  id: string;
  count: number;
}

/** The three best statuses by one counter (ties: the older first): enough to skip the two picked before. */
class Podium {
  readonly best: Candidate[] = [];
  offer(id: string, count: number): void {
    this.best.push({ id, count });
    this.best.sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));
    if (this.best.length > 3) this.best.pop();
  }
  firstExcept(...ids: (string | null)[]): string | null {
    return this.best.find((c) => !ids.includes(c.id))?.id ?? null;
  }
}

/** What one pass over the year's statuses and reblogs finds. */
class StatusesTally {
  total = 0;
  reblogs = 0;
  replies = 0;
  standalone = 0;
  /** Statuses with a poll: Warren has no polls yet, so always 0. */
  polls = 0;
  readonly perMonth = new Array<number>(12).fill(0);
  readonly tags = new Tally();
  readonly apps = new Tally();
  readonly interactions = new Tally();
  readonly rebloggedAccounts = new Tally();
  readonly byReblogs = new Podium();
  readonly byFavourites = new Podium();
  readonly byReplies = new Podium();

  constructor(private readonly store: Store, private readonly accountId: string) {}

  add(status: StatusRecord): void {
    const self = this.accountId;
    this.total++;
    this.perMonth[new Date(Number(BigInt(status.id) >> 16n)).getUTCMonth()]!++;
    if (status.applicationId) this.apps.add(status.applicationId);
    if (status.reblogOfId) {
      this.reblogs++;
      const original = getStatus(this.store, status.reblogOfId);
      if (original && !original.deletedAt) {
        this.rebloggedAccounts.add(original.accountId);
        if (original.accountId !== self) this.interactions.add(original.accountId);
      }
      return;
    }
    // As Mastodon's scopes: a reply to oneself (a thread) is standalone; a reply to another account is a reply.
    if (!status.inReplyToId || status.inReplyToAccountId === self) this.standalone++;
    else if (status.inReplyToAccountId !== null) this.replies++;
    for (const tag of new Set(status.tags)) this.tags.add(tag);
    const others = new Set(status.mentionIds);
    if (status.inReplyToAccountId) others.add(status.inReplyToAccountId);
    others.delete(self);
    for (const other of others) this.interactions.add(other);
    if (status.visibility === "public") {
      this.byReblogs.offer(status.id, status.reblogsCount);
      this.byFavourites.offer(status.id, status.favouritesCount);
      this.byReplies.offer(status.id, status.repliesCount);
    }
  }
}

async function tallyStatuses(store: Store, accountId: string, range: IdRange, { batch, pause }: Batching): Promise<StatusesTally> {
  const tally = new StatusesTally(store, accountId);
  let after: string | null = null;
  for (;;) {
    const ids = accountStatusIdsIn(store, accountId, range, after, batch);
    for (const id of ids) {
      const status = getStatus(store, id);
      if (status && !status.deletedAt) tally.add(status);
    }
    if (ids.length < batch) return tally;
    after = ids[ids.length - 1]!;
    await pause();
  }
}

/** The year's live favourites, as interactions with the authors of the favourited statuses. */
async function tallyFavourites(store: Store, accountId: string, range: IdRange, interactions: Tally, { batch, pause }: Batching): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const rows = accountFavouritesIn(store, accountId, range, after, batch);
    for (const row of rows) {
      if (favouriteIdOf(store, accountId, row.statusId) !== row.favouriteId) continue;
      const status = getStatus(store, row.statusId);
      if (status && !status.deletedAt && status.accountId !== accountId) interactions.add(status.accountId);
    }
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!.favouriteId;
    await pause();
  }
}

/**
 * Mastodon's AnnualReport::Percentiles: the share of local accounts active that year (at least one status, at
 * least one new follower) that posted fewer statuses or gained fewer followers, over their number plus one, in %.
 */
async function percentiles(store: Store, range: IdRange, mine: { statuses: number; followers: number }, { batch, pause }: Batching) {
  let anyStatuses = 0;
  let fewerStatuses = 0;
  let anyFollowers = 0;
  let fewerFollowers = 0;
  let after: string | null = null;
  for (;;) {
    const ids = localAccountIdsAfter(store, after, batch);
    for (const id of ids) {
      const statuses = countAccountStatusesIn(store, id, range);
      if (statuses > 0) {
        anyStatuses++;
        if (statuses < mine.statuses) fewerStatuses++;
      }
      const followers = countFollowersIn(store, id, range);
      if (followers > 0) {
        anyFollowers++;
        if (followers < mine.followers) fewerFollowers++;
      }
    }
    if (ids.length < batch) break;
    after = ids[ids.length - 1]!;
    await pause();
  }
  return { followers: (fewerFollowers / (anyFollowers + 1.0)) * 100, statuses: (fewerStatuses / (anyStatuses + 1.0)) * 100 };
}

/** Mastodon's AnnualReport::Archetype. */
export function archetypeOf(counts: { standalone: number; replies: number; reblogs: number; polls: number }): Archetype {
  const { standalone, replies, reblogs, polls } = counts;
  if (standalone + replies + reblogs < AVERAGE_PER_YEAR) return "lurker";
  if (reblogs > standalone * 2) return "booster";
  if (polls > standalone * 0.1) return "pollster";
  if (replies > standalone * 2) return "replier";
  return "oracle";
}

const accountCounts = (entries: [string, number][]): AccountCount[] => entries.map(([accountId, count]) => ({ accountId, count }));
const nameCounts = (entries: [string, number][]): NameCount[] => entries.map(([name, count]) => ({ name, count }));

/** The apps the year's statuses were posted with, counted by app name as Mastodon groups them. */
function mostUsedApps(store: Store, apps: Tally): NameCount[] {
  const byName = new Tally();
  for (const [appId, count] of apps.counts) {
    const app = getApp(store, appId);
    if (app) byName.add(app.name, count);
  }
  return nameCounts(byName.top(TOP_APPS));
}

export async function computeAnnualReport(
  store: Store,
  accountId: string,
  year: number,
  batching: Batching = DEFAULT_BATCHING,
): Promise<AnnualReportData> {
  const range = yearRange(year);
  const statuses = await tallyStatuses(store, accountId, range, batching);
  await tallyFavourites(store, accountId, range, statuses.interactions, batching);
  const timeSeries: MonthCounts[] = statuses.perMonth.map((count, index) => {
    const month = monthRange(year, index + 1);
    return { month: index + 1, statuses: count, following: countFollowingIn(store, accountId, month), followers: countFollowersIn(store, accountId, month) };
  });
  const followersGained = timeSeries.reduce((sum, month) => sum + month.followers, 0);
  const byReblogs = statuses.byReblogs.firstExcept();
  const byFavourites = statuses.byFavourites.firstExcept(byReblogs);
  const byReplies = statuses.byReplies.firstExcept(byReblogs, byFavourites);
  return {
    archetype: archetypeOf(statuses),
    typeDistribution: { total: statuses.total, reblogs: statuses.reblogs, replies: statuses.replies, standalone: statuses.standalone },
    topStatuses: { byReblogs, byFavourites, byReplies },
    mostUsedApps: mostUsedApps(store, statuses.apps),
    commonlyInteractedWithAccounts: accountCounts(statuses.interactions.top(TOP_INTERACTED_ACCOUNTS, MINIMUM_COUNT)),
    timeSeries,
    topHashtags: nameCounts(statuses.tags.top(TOP_HASHTAGS, MINIMUM_COUNT)),
    mostRebloggedAccounts: accountCounts(statuses.rebloggedAccounts.top(TOP_REBLOGGED_ACCOUNTS, MINIMUM_COUNT)),
    percentiles: await percentiles(store, range, { statuses: statuses.total, followers: followersGained }, batching),
  };
}
