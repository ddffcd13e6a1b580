// Collections (docs/collections.md): records by id, an owner's collections, items by collection and the
// collections an account is featured in, all in one keyspace with families by the first key element.
import { END, type Store } from "./handle.ts";
import type { CollectionItemRecord, CollectionRecord } from "../model/collections.ts";

export function getCollection(store: Store, id: string): CollectionRecord | undefined {
  return store.db.collections.get(["c", id]) as CollectionRecord | undefined;
}

/** The owner's collection ids, oldest first. */
export function collectionIdsOf(store: Store, ownerId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.collections.getKeys({ start: ["a", ownerId], end: ["a", ownerId, END] })) out.push((key as string[])[2]!);
  return out;
}

export function countCollections(store: Store, ownerId: string): number {
  return store.db.collections.getCount({ start: ["a", ownerId], end: ["a", ownerId, END] });
}

/** Inside a write: a new collection or new settings for one. */
export function putCollection(store: Store, collection: CollectionRecord): void {
  store.db.collections.put(["c", collection.id], collection);
  store.db.collections.put(["a", collection.accountId, collection.id], null);
}

/** Inside a write: the collection and its items. */
export function removeCollection(store: Store, collection: CollectionRecord): void {
  for (const item of itemsOf(store, collection.id)) removeItem(store, item);
  store.db.collections.remove(["a", collection.accountId, collection.id]);
  store.db.collections.remove(["c", collection.id]);
}

/** The collection's items, oldest first. */
export function itemsOf(store: Store, collectionId: string): CollectionItemRecord[] {
  const out: CollectionItemRecord[] = [];
  for (const { value } of store.db.collections.getRange({ start: ["i", collectionId], end: ["i", collectionId, END] })) {
    out.push(value as CollectionItemRecord);
  }
  return out;
}

export function getItem(store: Store, collectionId: string, itemId: string): CollectionItemRecord | undefined {
  return store.db.collections.get(["i", collectionId, itemId]) as CollectionItemRecord | undefined;
}

/** The item featuring `accountId` in the collection, if any. */
export function itemFor(store: Store, collectionId: string, accountId: string): CollectionItemRecord | undefined {
  const itemId = store.db.collections.get(["f", accountId, collectionId]) as string | undefined;
  return itemId === undefined ? undefined : getItem(store, collectionId, itemId);
}

/** Inside a write. */
export function putItem(store: Store, item: CollectionItemRecord): void {
  store.db.collections.put(["i", item.collectionId, item.id], item);
  store.db.collections.put(["f", item.accountId, item.collectionId], item.id);
}

/** Inside a write. */
export function removeItem(store: Store, item: CollectionItemRecord): void {
  store.db.collections.remove(["i", item.collectionId, item.id]);
  store.db.collections.remove(["f", item.accountId, item.collectionId]);
}

/** Ids of the collections `accountId` is featured in, whoever curates them. */
export function collectionIdsFeaturing(store: Store, accountId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.collections.getKeys({ start: ["f", accountId], end: ["f", accountId, END] })) out.push((key as string[])[2]!);
  return out;
}

/** Inside a write: an account's data is deleted: its collections, and the items that feature it elsewhere. */
export function removeCollectionsOf(store: Store, accountId: string): void {
  for (const id of collectionIdsOf(store, accountId)) {
    const collection = getCollection(store, id);
    if (collection) removeCollection(store, collection);
  }
  for (const collectionId of collectionIdsFeaturing(store, accountId)) {
    const item = itemFor(store, collectionId, accountId);
    if (item) removeItem(store, item);
  }
}
