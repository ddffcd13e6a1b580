// Scheduled statuses: what to post and when, until the publishing job posts it. Typed reads and writes only;
// the rules live in domain/statuses/scheduled.ts.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { ScheduledStatusRecord } from "../model/statuses.ts";

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
