// Collections (Mastodon 4.6): create, read with accounts, update (PUT and PATCH), the account's list (others see
// the discoverable ones), items (discoverable local accounts only, no duplicates, at most 25), revoke,
// in_collections, delete; validation (422 with details), another's collection (403), scopes, api_versions 10.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, signedInUser } from "../helpers/clients.ts";
import { api, staffUser } from "./admin-helpers.ts";
import { getCollection } from "../../src/store/collections.ts";

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
let curator: User;
let friend: User;
let hidden: User;
let stranger: User;

async function discoverable(user: User, value: boolean) {
  expect((await api(t, "PATCH", "/api/v1/accounts/update_credentials", user.token, { discoverable: value })).status).toBe(200);
}

beforeAll(async () => {
  t = await startTestApp();
  curator = await signedInUser(t, "curator");
  friend = await signedInUser(t, "friend");
  hidden = await signedInUser(t, "hidden");
  stranger = await signedInUser(t, "stranger");
  await discoverable(friend, true);
  await discoverable(hidden, false);
});
afterAll(() => t.close());

const create = (token: string, body: object) => api(t, "POST", "/api/v1/collections", token, body);

describe("collections", () => {
  test("create, fetch with accounts, update, list, delete (masto.js's walk-through)", async () => {
    const made = await create(curator.token, { name: "My collection", sensitive: false, discoverable: true, tag_name: "#Cats", language: "en" });
    expect(made.status).toBe(200);
    const c = made.body.collection;
    expect(c).toMatchObject({ name: "My collection", description: "", account_id: curator.id, local: true, sensitive: false, discoverable: true, item_count: 0, items: [], language: "en" });
    expect(c.tag).toEqual({ name: "cats", url: `${t.deps.config.url}/tags/cats` });

    const fetched = await api(t, "GET", `/api/v1/collections/${c.id}`, undefined);
    expect(fetched.status).toBe(200);
    expect(fetched.body.collection.name).toBe("My collection");
    expect(fetched.body.accounts.map((a: any) => a.id)).toEqual([curator.id]);

    const put = await api(t, "PUT", `/api/v1/collections/${c.id}`, curator.token, { name: "My collection 2" });
    expect(put.body.collection).toMatchObject({ name: "My collection 2", sensitive: false, language: "en" });
    const patched = await api(t, "PATCH", `/api/v1/collections/${c.id}`, curator.token, { description: "worth a follow", tag_name: "" });
    expect(patched.body.collection).toMatchObject({ name: "My collection 2", description: "worth a follow", tag: null });

    const listed = await api(t, "GET", `/api/v1/accounts/${curator.id}/collections`, curator.token);
    expect(listed.body.collections).toContainEqual(patched.body.collection);
    expect((await api(t, "GET", `/api/v1/accounts/${curator.id}/in_collections`, curator.token)).body).toEqual({ collections: [] });

    expect((await api(t, "DELETE", `/api/v1/collections/${c.id}`, curator.token)).status).toBe(200);
    expect((await api(t, "GET", `/api/v1/collections/${c.id}`, curator.token)).status).toBe(404);
  });

  test("validation as Mastodon's model: name 1–40, description ≤ 100, a language, a usable tag", async () => {
    const bad = await create(curator.token, { name: "", description: "x".repeat(101), language: "xx", tag_name: "not a tag" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details).sort()).toEqual(["description", "language", "name", "tag_name"]);
    expect((await create(curator.token, { name: "n".repeat(41) })).body.details.name[0].error).toBe("ERR_TOO_LONG");
    expect((await create(curator.token, { name: "n".repeat(40) })).status).toBe(200);
  });

  test("items: a discoverable local account is featured at once; others refused; revoke takes one out", async () => {
    const c = (await create(curator.token, { name: "Friends", account_ids: [friend.id] })).body.collection;
    expect(c.items).toMatchObject([{ account_id: friend.id, state: "accepted" }]);
    expect(c.item_count).toBe(1);
    const again = await api(t, "POST", `/api/v1/collections/${c.id}/items`, curator.token, { account_id: friend.id });
    expect(again.status).toBe(422);
    expect((await api(t, "POST", `/api/v1/collections/${c.id}/items`, curator.token, { account_id: hidden.id })).status).toBe(403);
    expect((await api(t, "POST", `/api/v1/collections/${c.id}/items`, curator.token, { account_id: "999999" })).status).toBe(404);

    const shown = await api(t, "GET", `/api/v1/collections/${c.id}`, stranger.token);
    expect(shown.body.accounts.map((a: any) => a.id)).toEqual([curator.id, friend.id]);
    const featuring = await api(t, "GET", `/api/v1/accounts/${friend.id}/in_collections`, stranger.token);
    expect(featuring.body.collections.map((x: any) => x.id)).toEqual([c.id]);

    const itemId = c.items[0].id;
    expect((await api(t, "POST", `/api/v1/collections/${c.id}/items/${itemId}/revoke`, stranger.token)).status).toBe(403);
    expect((await api(t, "POST", `/api/v1/collections/${c.id}/items/${itemId}/revoke`, friend.token)).status).toBe(200);
    const after = await api(t, "GET", `/api/v1/collections/${c.id}`, curator.token);
    expect(after.body.collection.items).toEqual([]);
    expect((await api(t, "GET", `/api/v1/accounts/${friend.id}/in_collections`, friend.token)).body.collections).toEqual([]);
  });

  test("creation with an account that may not be featured is refused whole: no collection is left behind", async () => {
    const count = async () => (await api(t, "GET", `/api/v1/accounts/${stranger.id}/collections`, stranger.token)).body.collections.length;
    const before = await count();
    expect((await create(stranger.token, { name: "mixed", account_ids: [friend.id, hidden.id] })).status).toBe(403);
    expect((await create(stranger.token, { name: "twice", account_ids: [friend.id, friend.id] })).status).toBe(422);
    expect(await count()).toBe(before);
  });

  test("the curator removes an item; someone else's collection is 403; hidden collections stay the owner's", async () => {
    const c = (await create(curator.token, { name: "Private picks", discoverable: false, account_ids: [friend.id] })).body.collection;
    expect((await api(t, "PUT", `/api/v1/collections/${c.id}`, stranger.token, { name: "mine now" })).status).toBe(403);
    expect((await api(t, "DELETE", `/api/v1/collections/${c.id}`, stranger.token)).status).toBe(403);
    const othersView = await api(t, "GET", `/api/v1/accounts/${curator.id}/collections`, stranger.token);
    expect(othersView.body.collections.map((x: any) => x.id)).not.toContain(c.id);
    const ownView = await api(t, "GET", `/api/v1/accounts/${curator.id}/collections?limit=1`, curator.token);
    expect(ownView.body.collections.map((x: any) => x.id)).toEqual([c.id]);
    const itemId = c.items[0].id;
    expect((await api(t, "DELETE", `/api/v1/collections/${c.id}/items/${itemId}`, stranger.token)).status).toBe(403);
    expect((await api(t, "DELETE", `/api/v1/collections/${c.id}/items/${itemId}`, curator.token)).status).toBe(200);
    expect((await api(t, "GET", `/api/v1/collections/${c.id}`, curator.token)).body.collection.item_count).toBe(0);
  });

  test("at most 10 collections an account; write:collections needed; anonymous creation 401", async () => {
    const many = await signedInUser(t, "hoarder");
    for (let i = 0; i < 10; i++) expect((await create(many.token, { name: `c${i}` })).status).toBe(200);
    expect((await create(many.token, { name: "one more" })).status).toBe(422);
    const readOnly = await signedInUser(t, "reader", "read");
    expect((await create(readOnly.token, { name: "nope" })).status).toBe(403);
    expect((await create("", { name: "nope" })).status).toBe(401);
    const app = await appToken(t, await createClientApp(t, "read write"), "read write");
    expect((await create(app.access_token, { name: "app" })).status).toBe(422);
  });

  test("deleting an account's data removes its collections and the items featuring it", async () => {
    const admin = await staffUser(t, "collections_admin", "Admin");
    const victim = await signedInUser(t, "victim");
    await discoverable(victim, true);
    const own = (await create(victim.token, { name: "mine" })).body.collection;
    const theirs = (await create(curator.token, { name: "with victim", account_ids: [victim.id, friend.id] })).body.collection;
    expect(theirs.item_count).toBe(2);
    const action = { type: "suspend", send_email_notification: false };
    expect((await api(t, "POST", `/api/v1/admin/accounts/${victim.id}/action`, admin.token, action)).status).toBe(200);
    expect((await api(t, "DELETE", `/api/v1/admin/accounts/${victim.id}`, admin.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect(getCollection(t.deps.store, own.id.padStart(18, "0"))).toBeUndefined();
    const after = await api(t, "GET", `/api/v1/collections/${theirs.id}`, curator.token);
    expect(after.body.collection.items.map((i: any) => i.account_id)).toEqual([friend.id]);
  });

  test("the instance advertises API version 10 and the collections scopes", async () => {
    expect((await api(t, "GET", "/api/v2/instance")).body.api_versions).toEqual({ mastodon: 10 });
    const app = await api(t, "POST", "/api/v1/apps", undefined, { client_name: "c", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read:collections write:collections" });
    expect(app.status).toBe(200);
  });
});
