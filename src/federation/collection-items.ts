// Reading another server's collections (outbox, featured, replies…) a bounded number of items at a time:
// the collection's own items, then its pages through `first` and `next`, each page fetched through the
// document loader's guard. Items are whatever the server sent: embedded objects, links or bare ids.
import type { Collection, CollectionPage } from "@fedify/vocab";

/** Pages of one collection read at most (a server could chain pages forever). */
const MAX_PAGES = 3;

export async function collectionItems(collection: Collection | null, limit: number): Promise<unknown[]> {
  if (!collection) return [];
  const out: unknown[] = [];
  const take = async (source: Collection | CollectionPage) => {
    for await (const item of source.getItems()) {
      out.push(item);
      if (out.length >= limit) break;
    }
  };
  await take(collection).catch(() => {});
  let page = out.length < limit ? await collection.getFirst().catch(() => null) : null;
  for (let pages = 0; page && out.length < limit && pages < MAX_PAGES; pages++) {
    await take(page).catch(() => {});
    page = out.length < limit ? await page.getNext().catch(() => null) : null;
  }
  return out;
}
