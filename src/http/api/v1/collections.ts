// Collections (Mastodon 4.6; docs/collections.md): POST /api/v1/collections, GET/PUT/PATCH/DELETE
// /api/v1/collections/:id, POST /api/v1/collections/:id/items, DELETE /api/v1/collections/:id/items/:item_id,
// POST /api/v1/collections/:id/items/:item_id/revoke, GET /api/v1/accounts/:id/collections and /in_collections.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import type { CollectionRecord } from "../../../model/collections.ts";
import { COLLECTION_LIMITS } from "../../../domain/limits.ts";
import { findVisibleAccount } from "../../../domain/accounts/read.ts";
import { collectionsOfAccount, deleteCollection, findCollection, updateCollection, type CollectionInput } from "../../../domain/collections/manage.ts";
import { addCollectionItem, collectionsFeaturing, createCollectionWithItems, loadCollection, removeCollectionItem, revokeCollectionItem } from "../../../domain/collections/items.ts";
import {
  CollectionsSchema, CollectionWithAccountsSchema, WrappedCollectionItemSchema, WrappedCollectionSchema,
  presentCollection, presentCollectionItem, presentCollectionWithAccounts,
} from "../../../entities/collection.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody, Flag, toBool, type FlagValue } from "../../schemas.ts";

const READ = ["read:collections"];
const WRITE = ["write:collections"];
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };
const IdParams = t.Object({ id: t.String({ description: "Collection id" }) });
const ItemParams = t.Object({ id: t.String({ description: "Collection id" }), item_id: t.String({ description: "Collection item id" }) });
const AccountParams = t.Object({ id: t.String({ description: "Account id" }) });

const fields = {
  description: t.Optional(t.String({ description: `At most ${COLLECTION_LIMITS.maxDescriptionLength} characters` })),
  language: t.Optional(t.String({ description: "ISO 639-1 code (empty: none)" })),
  tag_name: t.Optional(t.String({ description: "A hashtag, without # (empty: none)" })),
  sensitive: t.Optional(Flag({ description: "Marked as sensitive (default false)" })),
  discoverable: t.Optional(Flag({ description: "Shown on the profile and in search (default true)" })),
};
const CreateBody = t.Object({
  name: t.String({ description: `At most ${COLLECTION_LIMITS.maxNameLength} characters` }),
  ...fields,
  account_ids: t.Optional(t.Union([t.String(), t.Array(t.String(), { maxItems: COLLECTION_LIMITS.maxItems })], { description: "Accounts to feature at once (account_ids[]=…)" })),
});
const UpdateBody = t.Object({ name: t.Optional(t.String({ description: `At most ${COLLECTION_LIMITS.maxNameLength} characters` })), ...fields });
const ListQuery = t.Object({
  limit: t.Optional(t.String({ pattern: "^\\d{1,3}$", description: `At most ${COLLECTION_LIMITS.maxPageSize} (default ${COLLECTION_LIMITS.defaultPageSize})` })),
  offset: t.Optional(t.String({ pattern: "^\\d{1,6}$", description: "Collections to skip" })),
});

type Body = { name?: string; description?: string; language?: string; tag_name?: string; sensitive?: FlagValue; discoverable?: FlagValue };
const flag = (value: FlagValue | undefined) => (value === undefined ? undefined : toBool(value));
const input = (body: Body): CollectionInput => ({
  name: body.name, description: body.description, language: body.language, tagName: body.tag_name,
  sensitive: flag(body.sensitive), discoverable: flag(body.discoverable),
});

function present(deps: Deps, collection: CollectionRecord, viewerId: string | null) {
  const { owner, items } = loadCollection(deps.store, collection, viewerId);
  return presentCollection(deps.config, collection, owner, items);
}

const collectionRoutes = (deps: Deps) =>
  new Elysia({ name: "collection-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/collections",
      async ({ viewer, body }) => {
        const ids = body.account_ids === undefined ? [] : [body.account_ids].flat();
        const collection = await createCollectionWithItems(deps, viewer.account.id, input(body), ids);
        return { collection: present(deps, collection, viewer.account.id) };
      },
      { auth: WRITE, body: CreateBody, response: { 200: WrappedCollectionSchema, ...errors }, detail: { summary: `Create a collection (at most ${COLLECTION_LIMITS.maxCollectionsPerAccount})`, tags: ["collections"] } },
    )
    .get(
      "/api/v1/collections/:id",
      ({ viewer, params }) => {
        const viewerId = viewer?.account?.id ?? null;
        const { collection, owner, items, featured } = loadCollection(deps.store, findCollection(deps.store, params.id, viewerId), viewerId);
        return presentCollectionWithAccounts(deps.config, collection, owner, items, featured, viewerId);
      },
      { maybeAuth: READ, publicCache: 15, params: IdParams, response: { 200: CollectionWithAccountsSchema, ...errors }, detail: { summary: "A collection with its curator and featured accounts", tags: ["collections"] } },
    )
    .put(
      "/api/v1/collections/:id",
      async ({ viewer, params, body }) => ({ collection: present(deps, await updateCollection(deps, params.id, viewer.account.id, input(body)), viewer.account.id) }),
      { auth: WRITE, params: IdParams, body: UpdateBody, response: { 200: WrappedCollectionSchema, ...errors }, detail: { summary: "Change a collection (each field given)", tags: ["collections"] } },
    )
    .patch(
      "/api/v1/collections/:id",
      async ({ viewer, params, body }) => ({ collection: present(deps, await updateCollection(deps, params.id, viewer.account.id, input(body)), viewer.account.id) }),
      { auth: WRITE, params: IdParams, body: UpdateBody, response: { 200: WrappedCollectionSchema, ...errors }, detail: { summary: "Change a collection (as PUT)", tags: ["collections"] } },
    )
    .delete(
      "/api/v1/collections/:id",
      async ({ viewer, params }) => {
        await deleteCollection(deps, params.id, viewer.account.id);
        return {};
      },
      { auth: WRITE, params: IdParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Delete a collection", tags: ["collections"] } },
    );

const itemRoutes = (deps: Deps) =>
  new Elysia({ name: "collection-item-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/collections/:id/items",
      async ({ viewer, params, body }) => ({ collection_item: presentCollectionItem(await addCollectionItem(deps, params.id, viewer.account.id, body.account_id)) }),
      {
        auth: WRITE, params: IdParams, body: t.Object({ account_id: t.String({ description: "The account to feature" }) }),
        response: { 200: WrappedCollectionItemSchema, ...errors },
        detail: { summary: `Feature an account (a discoverable local one; at most ${COLLECTION_LIMITS.maxItems} items)`, tags: ["collections"] },
      },
    )
    .delete(
      "/api/v1/collections/:id/items/:item_id",
      async ({ viewer, params }) => {
        await removeCollectionItem(deps, params.id, viewer.account.id, params.item_id);
        return {};
      },
      { auth: WRITE, params: ItemParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Take an item out of your collection", tags: ["collections"] } },
    )
    .post(
      "/api/v1/collections/:id/items/:item_id/revoke",
      async ({ viewer, params }) => {
        await revokeCollectionItem(deps, params.id, viewer.account.id, params.item_id);
        return {};
      },
      { auth: WRITE, params: ItemParams, response: { 200: EmptyObject, ...errors }, detail: { summary: "Take yourself out of someone's collection", tags: ["collections"] } },
    )
    .get(
      "/api/v1/accounts/:id/collections",
      ({ viewer, params, query }) => {
        const account = findVisibleAccount(deps, params.id);
        const viewerId = viewer?.account?.id ?? null;
        const limit = Math.min(Number(query.limit ?? COLLECTION_LIMITS.defaultPageSize) || COLLECTION_LIMITS.defaultPageSize, COLLECTION_LIMITS.maxPageSize);
        const page = collectionsOfAccount(deps.store, account.id, viewerId, Number(query.offset ?? 0), limit);
        return { collections: page.map((c) => present(deps, c, viewerId)) };
      },
      { maybeAuth: READ, publicCache: 15, params: AccountParams, query: ListQuery, response: { 200: CollectionsSchema, ...errors }, detail: { summary: "An account's collections, newest first (others': the discoverable ones)", tags: ["collections"] } },
    )
    .get(
      "/api/v1/accounts/:id/in_collections",
      ({ viewer, params }) => {
        const account = findVisibleAccount(deps, params.id);
        const viewerId = viewer?.account?.id ?? null;
        return { collections: collectionsFeaturing(deps.store, account.id, viewerId).map((c) => present(deps, c, viewerId)) };
      },
      { maybeAuth: READ, publicCache: 15, params: AccountParams, response: { 200: CollectionsSchema, ...errors }, detail: { summary: "The collections that feature an account", tags: ["collections"] } },
    );

export const collectionsRoutes = (deps: Deps) =>
  new Elysia({ name: "collections-routes", seed: deps.store.dir }).use(collectionRoutes(deps)).use(itemRoutes(deps));
