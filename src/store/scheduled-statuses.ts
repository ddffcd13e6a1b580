// Scheduled statuses: what to post and when, until the publishing job posts it. Typed reads and writes only;
// the rules live in domain/statuses/scheduled.ts.
import { END, type Store } from "./db.ts";
import { scanPage, type PageQuery } from "./paging.ts";
import type { QuotePolicy, Visibility } from "./records.ts";

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

export function getScheduledStatus(store: Store, id: string): ScheduledStatusRecord | undefined {
  return store.db.scheduledStatuses.get(["s", id]);
}

/** Inside a write: stores it (new or rescheduled) with its row in the account's list. */
export function putScheduledStatus(store: Store, record: ScheduledStatusRecord): void {
  store.db.scheduledStatuses.put(["s", record.id], record);
  store.db.scheduledStatuses.put(["a", record.accountId, record.id], record.scheduledAt);
}

/** Inside a write. */
export function removeScheduledStatus(store: Store, record: ScheduledStatusRecord): void {
  store.db.scheduledStatuses.remove(["s", record.id]);
  store.db.scheduledStatuses.remove(["a", record.accountId, record.id]);
}

/** An account's scheduled statuses with when each is due (ms), in id order: at most the total limit of them. */
export function scheduledTimesOf(store: Store, accountId: string): { id: string; at: number }[] {
  const out: { id: string; at: number }[] = [];
  for (const { key, value } of store.db.scheduledStatuses.getRange({ start: ["a", accountId], end: ["a", accountId, END] })) {
    out.push({ id: (key as string[])[2]!, at: value as number });
  }
  return out;
}

/** A page of an account's scheduled statuses, newest id first. */
export function pageScheduledStatuses(store: Store, accountId: string, query: PageQuery): ScheduledStatusRecord[] {
  const out: ScheduledStatusRecord[] = [];
  for (const row of scanPage<number>(store.db.scheduledStatuses, ["a", accountId], query)) {
    const record = getScheduledStatus(store, row.key[2]);
    if (record) out.push(record);
  }
  return out;
}
