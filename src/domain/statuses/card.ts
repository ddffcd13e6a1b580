// The `cards.fetch` subscriber of `status.created`: the first link of a new status becomes its preview card.
// Idempotent (a status that already has a card, or is gone, is left alone); a page without a usable card
// leaves none.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getStatus } from "../../store/statuses.ts";
import { getCard, putCard } from "../../store/statuses-cards.ts";
import { fetchCardData } from "./card-fetch.ts";
import type { PreviewCardRecord, StatusRecord } from "../../model/statuses.ts";

export interface CardFetchPayload {
  statusId: string;
  url: string;
}

/** The card shown for a status (a reblog shows its original's), or undefined when none was fetched. */
export function cardOf(store: Store, status: StatusRecord): PreviewCardRecord | undefined {
  return getCard(store, status.reblogOfId ?? status.id);
}

export async function fetchStatusCard(store: Store, config: Config, payload: CardFetchPayload): Promise<void> {
  const live = () => {
    const status = getStatus(store, payload.statusId);
    return !!status && !status.deletedAt && !getCard(store, payload.statusId);
  };
  if (!live()) return;
  const data = await fetchCardData(payload.url, config);
  if (!data) return;
  await store.write(() => {
    if (live()) putCard(store, payload.statusId, { v: 1, ...data, fetchedAt: Date.now() });
  });
}
