// Followers and following collections through HTTP, as a peer reads them (Accept: application/activity+json):
// the count and a first page, pages of 40 actor URIs newest first with `next` cursors, remote accounts by
// their actor URI and local ones by ours, only the count when the owner hides them. Real follows: remote ones
// sent by a hand-written peer, local ones through the API; job workers on.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startFakePeer, type FakePeer } from "../helpers/fake-peer.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { Update } from "@fedify/vocab";
import { federationFor } from "../../src/federation/index.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

const AP = "application/activity+json";
const REMOTE_FOLLOWERS = 41;

let peer: FakePeer;
let warren: Instance;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;
let carol: Awaited<ReturnType<typeof signedInUser>>;

const url = (path: string) => `http://${warren.domain}${path}`;

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(path.startsWith("http") ? path : url(path), { headers: { accept: AP } });
  return { status: res.status, body: res.status === 200 ? await res.json() : null };
}

/** The URIs of `owner`'s followers as the API lists them (newest follow first). */
async function apiFollowerUris(owner: { id: string; token: string }): Promise<string[]> {
  return ((await json(warren, `/api/v1/accounts/${owner.id}/followers?limit=80`, owner.token)) as { uri: string }[]).map((a) => a.uri);
}

beforeAll(async () => {
  peer = await startFakePeer();
  warren = await startInstance();
  [alice, bob, carol] = await Promise.all([signedInUser(warren.t, "alice"), signedInUser(warren.t, "bob"), signedInUser(warren.t, "carol")]);
  const followers = await Promise.all(Array.from({ length: REMOTE_FOLLOWERS }, (_, n) => peer.actor(`fan${n}`)));
  for (let n = 0; n < followers.length; n += 10) {
    await Promise.all(
      followers.slice(n, n + 10).map(async (fan) => {
        const res = await peer.send(fan, url("/users/alice/inbox"), { id: `${fan.id}#follows/1`, type: "Follow", actor: fan.id, object: url("/users/alice") });
        expect(res.status).toBe(202);
      }),
    );
  }
  await eventually(async () => (await apiFollowerUris(alice)).length === REMOTE_FOLLOWERS);
  // Two local followers, newest of all.
  await json(warren, `/api/v1/accounts/${alice.id}/follow`, bob.token, { method: "POST" });
  await json(warren, `/api/v1/accounts/${alice.id}/follow`, carol.token, { method: "POST" });
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("followers: the count and a first page; pages of 40 newest first with a next cursor; remote by their URI, local by ours", async () => {
  const collection = await get("/users/alice/followers");
  expect(collection.status).toBe(200);
  expect(collection.body).toMatchObject({ id: url("/users/alice/followers"), type: "OrderedCollection", totalItems: REMOTE_FOLLOWERS + 2 });
  expect(collection.body.orderedItems).toBeUndefined();
  expect(typeof collection.body.first).toBe("string");

  const first = await get(collection.body.first);
  expect(first.status).toBe(200);
  expect(first.body.type).toBe("OrderedCollectionPage");
  expect(first.body.partOf).toBe(url("/users/alice/followers"));
  expect(first.body.orderedItems).toHaveLength(40);
  expect(first.body.orderedItems.slice(0, 2)).toEqual([url("/users/carol"), url("/users/bob")]);
  expect(typeof first.body.next).toBe("string");

  const second = await get(first.body.next);
  expect(second.status).toBe(200);
  expect(second.body.orderedItems).toHaveLength(REMOTE_FOLLOWERS + 2 - 40);
  expect(second.body.next).toBeUndefined();

  const all = [...first.body.orderedItems, ...second.body.orderedItems];
  expect(all).toEqual(await apiFollowerUris(alice));
  expect(all.filter((uri: string) => uri.startsWith(peer.base))).toHaveLength(REMOTE_FOLLOWERS);
  expect(all).toContain(`${peer.base}/users/fan0`);
});

test("following: local and remote followees by their actor URIs, newest first", async () => {
  const dana = await peer.actor("dana");
  const remote = (await json(warren, `/api/v2/search?q=${encodeURIComponent(`@dana@${peer.domain}`)}&resolve=true&type=accounts`, alice.token)).accounts[0];
  await json(warren, `/api/v1/accounts/${bob.id}/follow`, alice.token, { method: "POST" });
  await json(warren, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
  const follow = await eventually(async () => peer.received.find((r) => r.body?.type === "Follow" && r.body.object === dana.id));
  const accept = await peer.send(dana, url("/users/alice/inbox"), { id: `${dana.id}#accepts/1`, type: "Accept", actor: dana.id, object: follow.body });
  expect(accept.status).toBe(202);
  await eventually(async () => (await relationship(warren, alice.token, remote.id)).following);

  const collection = await get("/users/alice/following");
  expect(collection.body).toMatchObject({ type: "OrderedCollection", totalItems: 2 });
  const page = await get(collection.body.first);
  expect(page.body.orderedItems).toEqual([dana.id, url("/users/bob")]);
  expect(page.body.next).toBeUndefined();
});

test("an account that hides its collections shows only the counts: no first page, no pages", async () => {
  const hidden = await warren.t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, json: { hide_collections: true } });
  expect(hidden.status).toBe(200);
  for (const [name, count] of [["followers", REMOTE_FOLLOWERS + 2], ["following", 2]] as const) {
    const collection = await get(`/users/alice/${name}`);
    expect(collection.status).toBe(200);
    expect(collection.body.totalItems).toBe(count);
    expect(collection.body.first).toBeUndefined();
    expect(collection.body.orderedItems).toBeUndefined();
    expect((await get(`/users/alice/${name}?cursor=first`)).status).toBe(404);
  }
  // Others' collections are unaffected.
  expect((await get("/users/bob/followers")).body.first).toBe(url("/users/bob/followers?cursor=first"));
});

test("a delivery to \"followers\" reaches every remote follower even when hidden, once per shared inbox", async () => {
  const ctx = federationFor(warren.t.deps).federation.createContext(new URL(url("/")), undefined);
  const alice = ctx.getActorUri("alice");
  const id = `${alice.href}#updates/collections-test`;
  await ctx.sendActivity({ identifier: "alice" }, "followers", new Update({ id: new URL(id), actor: alice, object: alice }), { preferSharedInbox: true });
  await eventually(async () => peer.received.some((r) => r.body?.id === id));
  await warren.t.deps.jobs.drain();
  // The 41 fans share the peer's inbox; local followers are never delivered to.
  expect(peer.received.filter((r) => r.body?.id === id).map((r) => r.path)).toEqual(["/inbox"]);
});

test("a cursor that is not one, and unknown accounts, are 404", async () => {
  expect((await get("/users/bob/followers?cursor=nonsense")).status).toBe(404);
  expect((await get("/users/nobody/followers")).status).toBe(404);
  expect((await get("/users/nobody/following?cursor=first")).status).toBe(404);
});
