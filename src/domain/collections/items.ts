// Collection items (docs/collections.md): the curator adds an account (POST /api/v1/collections/:id/items),
// removes an item, and a featured account takes itself out (revoke). As Mastodon's feature policy: a local
// account that is discoverable may be featured at once (feature_approval.automatic ["public"]); others are refused
// (a remote account would need a FeatureRequest over ActivityPub, which Warren does not send).
import type { Deps } from "../../deps.ts";
import { Forbidden, NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { isBlocking } from "../../store/relationships.ts";
import { collectionIdsFeaturing, getCollection, getItem, itemFor, itemsOf, putItem, removeItem } from "../../store/collections.ts";
import type { CollectionItemRecord, CollectionRecord } from "../../model/collections.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import { COLLECTION_LIMITS } from "../limits.ts";
import { createCollection, findCollection, findOwnCollection, type CollectionInput } from "./manage.ts";

const NOT_ALLOWED = "This action is not allowed";

/** The items `viewerId` sees: the curator all pending and accepted ones, others the accepted ones. */
export function visibleItems(store: Store, collection: CollectionRecord, viewerId: string | null): CollectionItemRecord[] {
  const own = viewerId === collection.accountId;
  return itemsOf(store, collection.id).filter((item) => {
    if (item.state !== "accepted" && !(own && item.state === "pending")) return false;
    return !(viewerId && isBlocking(store, item.accountId, viewerId));
  });
}

/** The account `rawAccountId` names, if `ownerId` may feature it: 404 unknown or suspended, 403 not featurable. */
function featurableAccount(store: Store, ownerId: string, rawAccountId: string): AccountRecord {
  const accountId = normaliseId(rawAccountId);
  const target = accountId ? getAccount(store, accountId) : undefined;
  if (!target || target.suspended) throw new NotFound();
  const featurable = target.domain === null && target.discoverable;
  if (!featurable || isBlocking(store, target.id, ownerId) || isBlocking(store, ownerId, target.id)) throw new Forbidden(NOT_ALLOWED);
  return target;
}

/** Inside a write: a new accepted item, unless the account is there already or the collection is full (422). */
function insertItem(deps: Deps, collectionId: string, accountId: string, now: number): CollectionItemRecord {
  const { store } = deps;
  if (!getCollection(store, collectionId)) throw new NotFound();
  if (itemFor(store, collectionId, accountId)) throw new Unprocessable("Validation failed: Account has already been taken");
  const counted = itemsOf(store, collectionId).filter((i) => i.state === "accepted" || i.state === "pending").length;
  if (counted >= COLLECTION_LIMITS.maxItems) {
    throw new Unprocessable(`Validation failed: Collection items are too many (maximum is ${COLLECTION_LIMITS.maxItems})`);
  }
  const item: CollectionItemRecord = { v: 1, id: newId(now), collectionId, accountId, state: "accepted", createdAt: now };
  putItem(store, item);
  putCollectionTouched(deps, collectionId, now);
  return item;
}

export async function addCollectionItem(deps: Deps, rawCollectionId: string, ownerId: string, rawAccountId: string): Promise<CollectionItemRecord> {
  const collection = findOwnCollection(deps.store, rawCollectionId, ownerId);
  const target = featurableAccount(deps.store, ownerId, rawAccountId);
  return deps.store.write(() => insertItem(deps, collection.id, target.id, Date.now()));
}

/** POST /api/v1/collections with `account_ids[]`: the collection and its items in one write, or nothing. */
export async function createCollectionWithItems(deps: Deps, ownerId: string, input: CollectionInput, rawAccountIds: readonly string[]): Promise<CollectionRecord> {
  const targets = rawAccountIds.map((raw) => featurableAccount(deps.store, ownerId, raw));
  return createCollection(deps, ownerId, input, (collection) => {
    for (const target of targets) insertItem(deps, collection.id, target.id, collection.createdAt);
  });
}

function putCollectionTouched(deps: Deps, collectionId: string, now: number): void {
  const current = getCollection(deps.store, collectionId);
  if (current) deps.store.db.collections.put(["c", collectionId], { ...current, updatedAt: now });
}

/** DELETE /api/v1/collections/:id/items/:item_id: the curator takes an item out. */
export async function removeCollectionItem(deps: Deps, rawCollectionId: string, ownerId: string, rawItemId: string): Promise<void> {
  const { store } = deps;
  const collection = findOwnCollection(store, rawCollectionId, ownerId);
  const itemId = normaliseId(rawItemId);
  const item = itemId ? getItem(store, collection.id, itemId) : undefined;
  if (!item) throw new NotFound();
  await store.write(() => {
    if (getItem(store, collection.id, item.id)) removeItem(store, item);
  });
}

/** POST /api/v1/collections/:id/items/:item_id/revoke: the featured account takes itself out (marked revoked). */
export async function revokeCollectionItem(deps: Deps, rawCollectionId: string, viewerId: string, rawItemId: string): Promise<void> {
  const { store } = deps;
  const collection = findCollection(store, rawCollectionId, viewerId);
  const itemId = normaliseId(rawItemId);
  const item = itemId ? getItem(store, collection.id, itemId) : undefined;
  if (!item) throw new NotFound();
  if (item.accountId !== viewerId) throw new Forbidden(NOT_ALLOWED);
  await store.write(() => {
    if (getItem(store, collection.id, item.id)) putItem(store, { ...item, state: "revoked" });
  });
}

/** GET /api/v1/accounts/:id/in_collections: the collections that feature the account (accepted), newest first. */
export function collectionsFeaturing(store: Store, accountId: string, viewerId: string | null): CollectionRecord[] {
  return collectionIdsFeaturing(store, accountId)
    .map((id) => getCollection(store, id))
    .filter((c): c is CollectionRecord => {
      if (!c || (!c.discoverable && c.accountId !== viewerId)) return false;
      if (viewerId && isBlocking(store, c.accountId, viewerId)) return false;
      return itemFor(store, c.id, accountId)?.state === "accepted";
    })
    .sort((a, b) => b.createdAt - a.createdAt);
}

export interface LoadedCollection {
  collection: CollectionRecord;
  owner: AccountRecord;
  /** The items the viewer may see */
  items: CollectionItemRecord[];
  /** Their accounts, in the items' order */
  featured: AccountRecord[];
}

/** What the Collection entities are made of, as `viewerId` sees it. */
export function loadCollection(store: Store, collection: CollectionRecord, viewerId: string | null): LoadedCollection {
  const owner = getAccount(store, collection.accountId);
  if (!owner) throw new NotFound();
  const items = visibleItems(store, collection, viewerId);
  const featured = items.map((item) => getAccount(store, item.accountId)).filter((a): a is AccountRecord => a !== undefined);
  return { collection, owner, items, featured };
}
