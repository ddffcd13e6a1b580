// Statuses and what hangs off them: edits, counters, cards, polls, scheduled ones, conversations.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.
import type { RemoteEmoji } from "./media.ts";

export type Visibility = "public" | "unlisted" | "private" | "direct";

export interface StatusRecord {
  v: 1;
  id: string;
  accountId: string;
  uri: string;
  url: string | null;
  local: boolean;
  /** plain source text as typed (local statuses) */
  text: string;
  /** rendered HTML */
  content: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: Visibility;
  language: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  /** Remote statuses: the `inReplyTo` of a reply whose parent was not known when it was stored, until the
   * thread fetch (federation/thread-fetch.ts) links it. */
  inReplyToUri?: string;
  /** set on a reblog (a wrapper status with empty content) */
  reblogOfId: string | null;
  /** OAuth app that posted it (null for remote statuses) */
  applicationId: string | null;
  /** mentioned account ids */
  mentionIds: string[];
  /** lower-case hashtag names */
  tags: string[];
  mediaIds: string[];
  /** It has a poll (store/polls.ts, keyed by the status id); absent on statuses from before polls. */
  hasPoll?: boolean;
  /** A remote status's custom emojis, as its Note tags them (absent: none; local ones are looked up by shortcode). */
  emojis?: RemoteEmoji[];
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  /** Accepted quotes of it (store/quotes.ts); absent: none yet */
  quotesCount?: number;
  /** Who may quote it (domain/quotes/policy.ts); absent: nobody (statuses from before quote posts) */
  quotePolicy?: QuotePolicy;
  /** The status it quotes, and the quote's state (docs/statuses.md#quotes); absent: it quotes nothing */
  quote?: QuoteOfStatus;
  createdAt: number;
  editedAt: number | null;
  /** set when deleted: from then on it is gone from every read path; the rest of removal is a job */
  deletedAt: number | null;
}

/** Who may quote a status: `source[quote_policy]` and `quote_approval_policy` of the API. */
export type QuotePolicy = "public" | "followers" | "nobody";

/** A quote as stored on the quoting status: Mastodon's Quote (pending, rejected: remote quotes, later). */
export interface QuoteOfStatus {
  statusId: string;
  /** The quoted status's author (who may revoke it, and who may see a private quote of theirs). */
  accountId: string;
  state: "pending" | "accepted" | "rejected" | "revoked";
  /** FEP-044f: the QuoteAuthorization's id once accepted by another server (or of ours, for a remote quote). */
  authorizationUri?: string;
}

export type StatusCounter = "repliesCount" | "reblogsCount" | "favouritesCount";

export interface StatusEditRecord {
  v: 1;
  /** Time-sortable: the key's second element. */
  id: string;
  statusId: string;
  accountId: string;
  text: string;
  content: string;
  spoilerText: string;
  sensitive: boolean;
  mediaIds: string[];
  /** Each attachment's description as it was then, in mediaIds' order. */
  mediaDescriptions: (string | null)[];
  /** The poll's options as they were then; null without a poll. */
  pollOptions: string[] | null;
  /** When this version was made (the original: when the status was posted). */
  createdAt: number;
}

export type StatusCounts = Pick<StatusRecord, "repliesCount" | "reblogsCount" | "favouritesCount">;

export interface PreviewCardRecord {
  v: 1;
  url: string;
  title: string;
  description: string;
  type: "link" | "photo" | "video" | "rich";
  authorName: string;
  authorUrl: string;
  providerName: string;
  providerUrl: string;
  /** sanitised embed HTML (video/rich oEmbed only) */
  html: string;
  width: number;
  height: number;
  image: string | null;
  imageDescription: string;
  embedUrl: string;
  language: string | null;
  publishedAt: number | null;
  fetchedAt: number;
}

export interface PollRecord {
  v: 1;
  /** The status it belongs to; also the poll's id in the API. */
  statusId: string;
  options: string[];
  /** Votes per option, in the options' order. */
  optionVotes: number[];
  votesCount: number;
  votersCount: number;
  multiple: boolean;
  hideTotals: boolean;
  /** ms; null for a poll without an end (remote ones may have none) */
  expiresAt: number | null;
  /** When the expiry job told the voters and the author (set once, so a second run tells nobody). */
  notifiedAt: number | null;
  /** A local poll's results are to go out as an Update then (domain/polls/results.ts); absent: none pending. */
  resultsDueAt?: number | null;
}

export interface PollVoteRecord {
  /** Option indices, in the order voted (ascending within one vote). */
  choices: number[];
  at: number;
}

export interface ScheduledPoll {
  options: string[];
  expiresInSeconds: number;
  multiple: boolean;
  hideTotals: boolean;
}

/** The post as checked when it was scheduled, its defaults applied. */
export interface ScheduledParams {
  text: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: Visibility;
  language: string | null;
  inReplyToId: string | null;
  /** Reserved for it: their records name this scheduled status as their status until it is published. */
  mediaIds: string[];
  poll: ScheduledPoll | null;
  applicationId: string | null;
  /** The status it quotes (absent: none; quotable again when published, else posted without it) */
  quotedStatusId?: string | null;
  /** Who may quote it (absent on records from before quotes: public) */
  quotePolicy?: QuotePolicy;
}

export interface ScheduledStatusRecord {
  v: 1;
  id: string;
  accountId: string;
  /** ms */
  scheduledAt: number;
  params: ScheduledParams;
  createdAt: number;
}

export interface ConversationRecord {
  v: 1;
  id: string;
  accountId: string;
  /** the id of the first direct status of the thread (or of the status the thread replies to) */
  threadId: string;
  /** the other participants, in the order they joined */
  participantIds: string[];
  /** its statuses, oldest first */
  statusIds: string[];
  lastStatusId: string;
  unread: boolean;
}
