// Link preview cards, one per status, written by the cards.fetch subscriber.
import type { Store } from "./handle.ts";
import { KeptRecords, versionName } from "./versions.ts";
import type { PreviewCardRecord } from "../model/statuses.ts";

/** Per thread: every status of a page asks for its card, and most have none. */
const keptCards = new KeptRecords<PreviewCardRecord>("kept cards", 20_000);

export function getCard(store: Store, statusId: string): PreviewCardRecord | undefined {
  // A card's writes bump its status's version (versions.ts).
  return keptCards.get(store, statusId, versionName.status(statusId), () => store.db.cards.get(statusId));
}

/** Inside a write. */
export function putCard(store: Store, statusId: string, card: PreviewCardRecord): void {
  store.db.cards.put(statusId, card);
}

/** Inside a write. */
export function removeCard(store: Store, statusId: string): void {
  store.db.cards.remove(statusId);
}

/** Ids of statuses whose card was fetched before `cutoff` (ms), after `afterId`, at most `limit` examined. */
export function cardsFetchedBefore(store: Store, cutoff: number, afterId: string | null, limit: number): { ids: string[]; lastId: string | null } {
  const ids: string[] = [];
  let lastId: string | null = null;
  for (const { key, value } of store.db.cards.getRange({ start: afterId ?? undefined, limit: limit + 1 })) {
    if (typeof key !== "string" || key === afterId) continue;
    lastId = key;
    if ((value as PreviewCardRecord).fetchedAt < cutoff) ids.push(key);
  }
  return { ids, lastId };
}
