// Hashtag history: for each tag and day, how many statuses used it and how many accounts. Counted once per
// status (the rows under tag_day_statuses and tag_day_accounts say what was counted), so a subscriber that
// runs twice changes nothing.
import type { Store } from "./handle.ts";

export interface TagDay {
  uses: number;
  accounts: number;
}

export const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** Inside a write: counts a status's use of `tag` on its day. */
export function countTagUse(store: Store, tag: string, day: number, statusId: string, accountId: string): void {
  const { db } = store;
  if (db.tagDayStatuses.doesExist([tag, day, statusId])) return;
  db.tagDayStatuses.put([tag, day, statusId], null);
  const counted: TagDay = db.tagDays.get([tag, day]) ?? { uses: 0, accounts: 0 };
  const newAccount = !db.tagDayAccounts.doesExist([tag, day, accountId]);
  if (newAccount) db.tagDayAccounts.put([tag, day, accountId], null);
  db.tagDays.put([tag, day], { uses: counted.uses + 1, accounts: counted.accounts + (newAccount ? 1 : 0) });
}

/** The counts of `days` days ending with `lastDay`, newest first (days without use count zero). */
export function tagHistory(store: Store, tag: string, lastDay: number, days: number): ({ day: number } & TagDay)[] {
  const out: ({ day: number } & TagDay)[] = [];
  for (let day = lastDay; day > lastDay - days; day--) out.push({ day, ...(store.db.tagDays.get([tag, day]) ?? { uses: 0, accounts: 0 }) });
  return out;
}

/** Has any status ever been counted for `tag`? */
export function tagKnown(store: Store, tag: string): boolean {
  for (const _ of store.db.tagDays.getKeys({ start: [tag], end: [tag, Infinity], limit: 1 })) return true;
  return false;
}
