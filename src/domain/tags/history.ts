// Hashtag history (the Tag entity's `history`): Mastodon counts public and unlisted statuses, per day, for
// the last 7 days. The `tags.count_use` subscriber of `status.created` counts; readers ask for a week.
import type { Store } from "../../store/db.ts";
import { getStatus } from "../../store/statuses.ts";
import { countTagUse, DAY_MS, dayOf, tagHistory } from "../../store/tags.ts";

export const HISTORY_DAYS = 7;

export interface TagHistoryDay {
  /** start of the day, ms since the epoch (UTC) */
  day: number;
  uses: number;
  accounts: number;
}

/** The `tags.count_use` subscriber: counts a new status's hashtags (only public and unlisted ones count). */
export async function countTagsOf(store: Store, statusId: string): Promise<void> {
  const status = getStatus(store, statusId);
  if (!status || status.deletedAt || status.tags.length === 0) return;
  if (status.visibility !== "public" && status.visibility !== "unlisted") return;
  const day = dayOf(status.createdAt);
  await store.write(() => {
    for (const tag of status.tags) countTagUse(store, tag, day, status.id, status.accountId);
  });
}

/** The last week of a tag, today first. */
export function weekOf(store: Store, tag: string, now = Date.now()): TagHistoryDay[] {
  return tagHistory(store, tag, dayOf(now), HISTORY_DAYS).map(({ day, uses, accounts }) => ({ day: day * DAY_MS, uses, accounts }));
}
