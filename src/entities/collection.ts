// Collection entities (Mastodon 4.6 REST::CollectionSerializer, CollectionItemSerializer, CollectionWithAccounts).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { publicId } from "../lib/ids.ts";
import type { CollectionItemRecord, CollectionRecord } from "../model/collections.ts";
import type { AccountRecord } from "../model/accounts.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Nullable } from "./nullable.ts";
import { StatusTagSchema, presentStatusTag } from "./tag.ts";

export const CollectionItemSchema = t.Object(
  {
    id: t.String(),
    account_id: t.String(),
    state: t.Union([t.Literal("pending"), t.Literal("accepted"), t.Literal("rejected"), t.Literal("revoked")]),
    created_at: t.String(),
  },
  { description: "Mastodon CollectionItem" },
);

export const CollectionSchema = t.Object(
  {
    id: t.String(),
    uri: t.String(),
    name: t.String(),
    description: t.String(),
    language: Nullable(t.String()),
    account_id: t.String(),
    local: t.Boolean(),
    sensitive: t.Boolean(),
    discoverable: t.Boolean({ description: "Shown on the curator's profile, in search and recommendations" }),
    url: Nullable(t.String({ description: "null: Warren has no web page for a collection" })),
    item_count: t.Integer(),
    created_at: t.String(),
    updated_at: t.String(),
    tag: Nullable(StatusTagSchema),
    items: t.Array(CollectionItemSchema),
  },
  { description: "Mastodon Collection: accounts an account recommends following" },
);

export const WrappedCollectionSchema = t.Object({ collection: CollectionSchema });
export const CollectionsSchema = t.Object({ collections: t.Array(CollectionSchema) });
export const WrappedCollectionItemSchema = t.Object({ collection_item: CollectionItemSchema });
export const CollectionWithAccountsSchema = t.Object(
  { collection: CollectionSchema, accounts: t.Array(AccountSchema, { description: "The curator first, then each featured account" }) },
  { description: "Mastodon CollectionWithAccounts" },
);

type Collection = Static<typeof CollectionSchema>;

export function presentCollectionItem(item: CollectionItemRecord) {
  return { id: publicId(item.id), account_id: publicId(item.accountId), state: item.state, created_at: new Date(item.createdAt).toISOString() };
}

/** `items`: the items the viewer may see (domain/collections/items.ts visibleItems). */
export function presentCollection(config: Config, collection: CollectionRecord, owner: AccountRecord, items: readonly CollectionItemRecord[]): Collection {
  return {
    id: publicId(collection.id),
    uri: `${config.url}/users/${owner.username}/collections/${publicId(collection.id)}`,
    name: collection.name,
    description: collection.description,
    language: collection.language,
    account_id: publicId(collection.accountId),
    local: true,
    sensitive: collection.sensitive,
    discoverable: collection.discoverable,
    url: null,
    item_count: items.length,
    created_at: new Date(collection.createdAt).toISOString(),
    updated_at: new Date(collection.updatedAt).toISOString(),
    tag: collection.tag ? presentStatusTag(config, collection.tag) : null,
    items: items.map(presentCollectionItem),
  };
}

export function presentCollectionWithAccounts(
  config: Config,
  collection: CollectionRecord,
  owner: AccountRecord,
  items: readonly CollectionItemRecord[],
  featured: readonly AccountRecord[],
  viewerId: string | null,
) {
  return {
    collection: presentCollection(config, collection, owner, items),
    accounts: [owner, ...featured].map((account) => presentAccount(config, account, viewerId)),
  };
}
