// The instance's settings, figures, trends, rules, announcements and annual reports.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.
import type { AccountRecord, UserRecord } from "./accounts.ts";

export type SettingName =
  | "registrations"
  | "description"
  | "timeline_preview"
  | "local_live_feed_access"
  | "remote_live_feed_access"
  | "local_topic_feed_access"
  | "remote_topic_feed_access";

export type TrendKind = "tags" | "statuses" | "links";

export type Review = "approved" | "rejected";

export interface TagTrend {
  name: string;
  score: number;
}

export interface StatusTrend {
  statusId: string;
  score: number;
}

export interface LinkTrend {
  /** a digest of the URL (admin review addresses links by it) */
  id: string;
  url: string;
  /** the newest counted status carrying the card (the card is read from it) */
  statusId: string;
  /** the counted statuses that shared it, newest first (at most LINK_STATUSES_KEPT): its timeline */
  statusIds: string[];
  score: number;
  /** the last 7 days, today first: distinct accounts and statuses that shared it */
  history: { day: number; accounts: number; uses: number }[];
}

export interface TrendList<T> {
  computedAt: number;
  items: T[];
}

export interface TrendLists {
  tags: TrendList<TagTrend>;
  statuses: TrendList<StatusTrend>;
  links: TrendList<LinkTrend>;
}

export type Archetype = "lurker" | "booster" | "pollster" | "replier" | "oracle";

export interface NameCount {
  name: string;
  count: number;
}

export interface AccountCount {
  accountId: string;
  count: number;
}

export interface MonthCounts {
  /** 1–12 */
  month: number;
  statuses: number;
  following: number;
  followers: number;
}

/** What a report says (Mastodon's schema 1 sources; the entity renders it in Mastodon's words). */
export interface AnnualReportData {
  archetype: Archetype;
  typeDistribution: { total: number; reblogs: number; replies: number; standalone: number };
  topStatuses: { byReblogs: string | null; byFavourites: string | null; byReplies: string | null };
  mostUsedApps: NameCount[];
  commonlyInteractedWithAccounts: AccountCount[];
  timeSeries: MonthCounts[];
  topHashtags: NameCount[];
  mostRebloggedAccounts: AccountCount[];
  percentiles: { followers: number; statuses: number };
}

export interface AnnualReportRecord {
  v: 1;
  accountId: string;
  year: number;
  /** Mastodon's schema_version of `data` */
  schemaVersion: 1;
  data: AnnualReportData;
  createdAt: number;
  /** null until POST /api/v1/annual_reports/:year/read */
  viewedAt: number | null;
}

export interface AnnualReportGeneration {
  requestedAt: number;
}

export interface LocalMember {
  user: UserRecord;
  account: AccountRecord;
}

export interface RuleRecord {
  v: 1;
  id: string;
  text: string;
  /** longer explanation shown under the rule; "" when none */
  hint: string;
  createdAt: number;
}

export interface AnnouncementRecord {
  v: 1;
  id: string;
  /** the operator's text (plain, with links, hashtags and @mentions) */
  text: string;
  startsAt: number | null;
  endsAt: number | null;
  allDay: boolean;
  publishedAt: number;
  updatedAt: number;
}

export interface ReactionCount {
  name: string;
  count: number;
  me: boolean;
}

export interface PublisherReview {
  review: Review;
  reviewedAt: number;
}

/** Mastodon 4.5's settings of who may read the live (public) and topic (hashtag) feeds, local and remote
 * (domain/instance/feed-access.ts). */
export const FEED_SETTINGS = ["local_live_feed_access", "remote_live_feed_access", "local_topic_feed_access", "remote_topic_feed_access"] as const;
export type FeedSetting = (typeof FEED_SETTINGS)[number];
