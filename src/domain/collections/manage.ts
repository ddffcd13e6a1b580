// Collections (Mastodon 4.6; docs/collections.md): create, change, delete, read one, an account's list.
// Validation as Mastodon's Collection model: a name of at most 40 characters, a description of at most 100, an
// ISO 639-1 language, a usable hashtag; at most 10 collections per account (the default role's collection_limit).
import type { Deps } from "../../deps.ts";
import { Forbidden, NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { isBlocking } from "../../store/relationships.ts";
import { collectionIdsOf, countCollections, getCollection, putCollection, removeCollection } from "../../store/collections.ts";
import type { CollectionRecord } from "../../model/collections.ts";
import { COLLECTION_LIMITS } from "../limits.ts";
import { statusLanguages } from "../instance/languages.ts";
import { tagName } from "../tags/names.ts";
import { Problems, charLength, tooLong } from "../accounts/validation.ts";

export interface CollectionInput {
  name?: string;
  description?: string;
  language?: string | null;
  tagName?: string | null;
  sensitive?: boolean;
  discoverable?: boolean;
}

function checked(problems: Problems, collection: CollectionRecord, input: CollectionInput): CollectionRecord {
  const next = { ...collection };
  if (input.name !== undefined) next.name = input.name.trim();
  if (input.description !== undefined) next.description = input.description;
  if (input.language !== undefined) next.language = input.language || null;
  if (input.sensitive !== undefined) next.sensitive = input.sensitive;
  if (input.discoverable !== undefined) next.discoverable = input.discoverable;
  if (next.name === "") problems.add("name", "ERR_BLANK", "can't be blank");
  else if (charLength(next.name) > COLLECTION_LIMITS.maxNameLength) problems.add("name", "ERR_TOO_LONG", tooLong(COLLECTION_LIMITS.maxNameLength));
  if (charLength(next.description) > COLLECTION_LIMITS.maxDescriptionLength) {
    problems.add("description", "ERR_TOO_LONG", tooLong(COLLECTION_LIMITS.maxDescriptionLength));
  }
  if (next.language !== null && !statusLanguages().some((l) => l.code === next.language)) problems.add("language", "ERR_INVALID", "is invalid");
  if (input.tagName !== undefined) {
    const tag = input.tagName ? tagName(input.tagName) : null;
    if (input.tagName && !tag) problems.add("tag_name", "ERR_UNUSABLE", "is unusable");
    next.tag = tag;
  }
  return next;
}

/** `inWrite` adds to the same write (the items of domain/collections/items.ts createCollectionWithItems). */
export async function createCollection(
  deps: Deps,
  ownerId: string,
  input: CollectionInput,
  inWrite: (collection: CollectionRecord) => void = () => {},
): Promise<CollectionRecord> {
  const now = Date.now();
  const blank: CollectionRecord = {
    v: 1, id: newId(now), accountId: ownerId, name: "", description: "", language: null, tag: null,
    sensitive: false, discoverable: true, createdAt: now, updatedAt: now,
  };
  const problems = new Problems();
  const collection = checked(problems, blank, { ...input, name: input.name ?? "" });
  problems.throwIfAny();
  await deps.store.write(() => {
    if (countCollections(deps.store, ownerId) >= COLLECTION_LIMITS.maxCollectionsPerAccount) {
      throw new Unprocessable(`Validation failed: You have reached the maximum number of collections (${COLLECTION_LIMITS.maxCollectionsPerAccount})`);
    }
    putCollection(deps.store, collection);
    inWrite(collection);
  });
  return getCollection(deps.store, collection.id) ?? collection;
}

/** The collection with this id as `viewerId` may see it: not when its curator blocks the viewer. */
export function findCollection(store: Store, rawId: string, viewerId: string | null): CollectionRecord {
  const id = normaliseId(rawId);
  const collection = id ? getCollection(store, id) : undefined;
  const owner = collection && getAccount(store, collection.accountId);
  if (!collection || !owner || owner.suspended) throw new NotFound();
  if (viewerId && isBlocking(store, collection.accountId, viewerId)) throw new NotFound();
  return collection;
}

/** The viewer's own collection, or 403 for someone else's (Mastodon's CollectionPolicy). */
export function findOwnCollection(store: Store, rawId: string, ownerId: string): CollectionRecord {
  const collection = findCollection(store, rawId, ownerId);
  if (collection.accountId !== ownerId) throw new Forbidden("This action is not allowed");
  return collection;
}

export async function updateCollection(deps: Deps, rawId: string, ownerId: string, input: CollectionInput): Promise<CollectionRecord> {
  const collection = findOwnCollection(deps.store, rawId, ownerId);
  const problems = new Problems();
  const updated = { ...checked(problems, collection, input), updatedAt: Date.now() };
  problems.throwIfAny();
  await deps.store.write(() => {
    if (getCollection(deps.store, collection.id)) putCollection(deps.store, updated);
  });
  return updated;
}

export async function deleteCollection(deps: Deps, rawId: string, ownerId: string): Promise<void> {
  const collection = findOwnCollection(deps.store, rawId, ownerId);
  await deps.store.write(() => {
    const current = getCollection(deps.store, collection.id);
    if (current) removeCollection(deps.store, current);
  });
}

/** An account's collections, newest first; others see only the discoverable ones (offset paging). */
export function collectionsOfAccount(store: Store, ownerId: string, viewerId: string | null, offset: number, limit: number): CollectionRecord[] {
  if (viewerId && isBlocking(store, ownerId, viewerId)) return [];
  const all = collectionIdsOf(store, ownerId)
    .reverse()
    .map((id) => getCollection(store, id))
    .filter((c): c is CollectionRecord => c !== undefined && (c.discoverable || ownerId === viewerId));
  return all.slice(offset, offset + limit);
}
