// `warren preview_cards remove --days=N` (docs/cli.md): link preview cards fetched more than N days ago go;
// their statuses then show no card, as Mastodon's do once tootctl has removed them. Batches of one write each.
import { countRecords, type Store } from "../../store/db.ts";
import { cardsFetchedBefore, removeCard } from "../../store/statuses-cards.ts";

const BATCH = 1000;

export interface CardRemoval {
  /** cards fetched before the cutoff (removed, or that would be with dryRun) */
  matched: number;
}

/** Walks every card once; `onProgress` hears cards examined of all cards. */
export async function removeCardsFetchedBefore(store: Store, cutoff: number, dryRun: boolean, onProgress?: (done: number, total: number) => void): Promise<CardRemoval> {
  const total = countRecords(store.db.cards);
  let examined = 0;
  let matched = 0;
  let afterId: string | null = null;
  for (;;) {
    const { ids, lastId } = cardsFetchedBefore(store, cutoff, afterId, BATCH);
    if (lastId === null) break;
    if (!dryRun && ids.length) await store.write(() => ids.forEach((id) => removeCard(store, id)));
    matched += ids.length;
    examined += BATCH;
    afterId = lastId;
    onProgress?.(Math.min(examined, total), total);
  }
  onProgress?.(total, total);
  return { matched };
}
