// Computing trends (docs/trends.md) from the last week of the public timeline: only public statuses, not
// reblogs, by discoverable accounts neither suspended nor silenced. Tags trend by how many more accounts used
// them in the last day than on an average day of the week before; statuses by their reblogs and favourites,
// halved every 8 hours of age; links by the accounts that shared them in the last two days.
import { createHash } from "node:crypto";
import { idAtTime } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import type { Store } from "../../store/db.ts";
import { getCard } from "../../store/statuses-cards.ts";
import { getStatus } from "../../store/statuses.ts";
import { pagePublicFeed } from "../../store/timelines.ts";
import type { LinkTrend, StatusTrend, TagTrend, TrendLists } from "../../model/instance.ts";
import type { StatusRecord } from "../../model/statuses.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const WINDOW_DAYS = 7;
/** Statuses read per refresh, newest first. */
export const SCAN_CAP = 20_000;
/** Candidates kept per kind. */
export const KEEP = 100;
/** A tag trends once this many accounts used it in the last day. */
export const TAG_MIN_ACCOUNTS = 2;
/** A status trends from this many reblogs and favourites, within STATUS_MAX_AGE. */
export const STATUS_MIN_INTERACTIONS = 2;
const STATUS_MAX_AGE = 2 * DAY;
const STATUS_HALF_LIFE = 8 * HOUR;
/** A link trends once this many accounts shared it within LINK_RECENT. */
export const LINK_MIN_ACCOUNTS = 2;
const LINK_RECENT = 2 * DAY;
/** Statuses kept per link for GET /api/v1/timelines/link. */
export const LINK_STATUSES_KEPT = 200;

/** A status that may trend at all: public, original, by a discoverable account in good standing. */
export function trendable(store: Store, status: StatusRecord | undefined): status is StatusRecord {
  if (!status || status.deletedAt || status.reblogOfId || status.visibility !== "public") return false;
  const author = getAccount(store, status.accountId);
  return !!author && !author.suspended && !author.silenced && author.discoverable;
}

export const linkId = (url: string) => BigInt(`0x${createHash("sha256").update(url).digest("hex").slice(0, 15)}`).toString();

function recentStatuses(store: Store, now: number): StatusRecord[] {
  const rows = pagePublicFeed(store, "public", { limit: SCAN_CAP, sinceId: idAtTime(now - WINDOW_DAYS * DAY) }, () => true);
  return rows.map((row) => getStatus(store, row.key[1])).filter((s): s is StatusRecord => trendable(store, s));
}

const top = <T extends { score: number }>(items: T[]) => items.filter((i) => i.score > 0).sort((a, b) => b.score - a.score).slice(0, KEEP);

function tagTrends(statuses: readonly StatusRecord[], now: number): TagTrend[] {
  // accounts per tag: in the last day, and in the six days before
  const recent = new Map<string, Set<string>>();
  const before = new Map<string, Set<string>>();
  for (const s of statuses) {
    const into = now - s.createdAt < DAY ? recent : before;
    for (const tag of new Set(s.tags.map((t) => t.toLowerCase()))) {
      if (!into.has(tag)) into.set(tag, new Set());
      into.get(tag)!.add(s.accountId);
    }
  }
  return top(
    [...recent].map(([name, accounts]) => {
      const observed = accounts.size;
      const expected = Math.max(1, (before.get(name)?.size ?? 0) / (WINDOW_DAYS - 1));
      const score = observed >= TAG_MIN_ACCOUNTS && observed > expected ? (observed - expected) ** 2 / expected : 0;
      return { name, score };
    }),
  );
}

function statusTrends(statuses: readonly StatusRecord[], now: number): StatusTrend[] {
  return top(
    statuses
      .filter((s) => now - s.createdAt < STATUS_MAX_AGE && !(s.inReplyToId && s.inReplyToAccountId !== s.accountId) && !s.sensitive)
      .map((s) => {
        const interactions = s.reblogsCount + s.favouritesCount;
        const score = interactions >= STATUS_MIN_INTERACTIONS ? interactions * 0.5 ** ((now - s.createdAt) / STATUS_HALF_LIFE) : 0;
        return { statusId: s.id, score };
      }),
  );
}

function linkTrends(store: Store, statuses: readonly StatusRecord[], now: number): LinkTrend[] {
  const today = Math.floor(now / DAY);
  const links = new Map<string, { statusIds: string[]; recent: Set<string>; days: { accounts: Set<string>; uses: number }[] }>();
  for (const s of statuses) {
    const card = getCard(store, s.id);
    if (!card) continue;
    let link = links.get(card.url);
    if (!link) {
      link = { statusIds: [], recent: new Set(), days: Array.from({ length: WINDOW_DAYS }, () => ({ accounts: new Set<string>(), uses: 0 })) };
      links.set(card.url, link);
    }
    if (link.statusIds.length < LINK_STATUSES_KEPT) link.statusIds.push(s.id);
    if (now - s.createdAt < LINK_RECENT) link.recent.add(s.accountId);
    const day = link.days[today - Math.floor(s.createdAt / DAY)];
    if (day) {
      day.accounts.add(s.accountId);
      day.uses++;
    }
  }
  return top(
    [...links].map(([url, link]) => ({
      id: linkId(url),
      url,
      statusId: link.statusIds[0]!,
      statusIds: link.statusIds,
      score: link.recent.size >= LINK_MIN_ACCOUNTS ? link.recent.size : 0,
      history: link.days.map((d, i) => ({ day: (today - i) * DAY, accounts: d.accounts.size, uses: d.uses })),
    })),
  );
}

/** Every kind's candidates, best first, from the public statuses of the last week (at most SCAN_CAP). */
export function computeTrends(store: Store, now = Date.now()): TrendLists {
  const statuses = recentStatuses(store, now);
  return {
    tags: { computedAt: now, items: tagTrends(statuses, now) },
    statuses: { computedAt: now, items: statusTrends(statuses, now) },
    links: { computedAt: now, items: linkTrends(store, statuses, now) },
  };
}
