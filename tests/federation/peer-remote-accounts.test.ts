// Remote accounts made to look complete, against the non-Fedify test peer (Mastodon's shapes): counts from
// the collections' totalItems, pins from `featured`, featured hashtags from `featuredTags`, `movedTo`
// confirmed by the target's `alsoKnownAs`, and the newest posts of the outbox when first looked up.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { PUBLIC } from "../peer/checks/common.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";
import { LmdbKvStore } from "../../src/federation/kv.ts";
import { findAccountByUri } from "../../src/store/accounts.ts";

let warren: Instance;
let peer: Peer;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const AS = "https://www.w3.org/ns/activitystreams";

function note(author: PeerActor, n: number): Record<string, unknown> {
  const id = `${author.id}/statuses/${n}`;
  const document = { "@context": AS, id, type: "Note", attributedTo: author.id, content: `<p>post ${n}</p>`, published: new Date(Date.now() - n * 60_000).toISOString(), to: [PUBLIC], cc: [`${author.id}/followers`], url: id };
  peer.serve(new URL(id).pathname, document);
  return document;
}

const path = (actor: PeerActor, tail: string) => `${new URL(actor.id).pathname}${tail}`;
const resolve = async (username: string) =>
  (await json(warren, `/api/v2/search?q=${encodeURIComponent(`@${username}@${peer.domain}`)}&resolve=true&type=accounts`, alice.token)).accounts[0];

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  peer = startPeer({ flavour: "mastodon" });
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("counts, pins, featured tags and the newest posts of an account looked up for the first time", async () => {
  const carol = peer.actor("carol");
  const posts = [1, 2, 3].map((n) => note(carol, n));
  const pinned = note(carol, 9);
  const creates = posts.map((object) => ({ id: `${object.id}/activity`, type: "Create", actor: carol.id, published: object.published, to: object.to, cc: object.cc, object }));
  const boost = { id: `${carol.id}/statuses/99/activity`, type: "Announce", actor: carol.id, to: [PUBLIC], object: "http://127.0.0.1:1/nothing" };
  peer.serve(path(carol, "/outbox"), {
    "@context": AS, id: `${carol.id}/outbox`, type: "OrderedCollection", totalItems: 120,
    first: { type: "OrderedCollectionPage", id: `${carol.id}/outbox?page=true`, partOf: `${carol.id}/outbox`, orderedItems: [boost, ...creates] },
  });
  peer.serve(path(carol, "/followers"), { "@context": AS, id: `${carol.id}/followers`, type: "OrderedCollection", totalItems: 300 });
  peer.serve(path(carol, "/following"), { "@context": AS, id: `${carol.id}/following`, type: "OrderedCollection", totalItems: 42 });
  peer.serve(path(carol, "/collections/featured"), { "@context": AS, id: `${carol.id}/collections/featured`, type: "OrderedCollection", totalItems: 1, orderedItems: [pinned] });
  peer.serve(path(carol, "/collections/tags"), {
    "@context": [AS, { Hashtag: "as:Hashtag" }], id: `${carol.id}/collections/tags`, type: "Collection", totalItems: 2,
    items: [{ type: "Hashtag", href: `${peer.base}/tags/cats`, name: "#Cats" }, { type: "Hashtag", href: `${peer.base}/tags/x`, name: "#not a tag" }],
  });
  const found = await resolve("carol");
  await warren.t.deps.jobs.drain();
  const account = await json(warren, `/api/v1/accounts/${found.id}`, alice.token);
  expect(account).toMatchObject({ statuses_count: 120, followers_count: 300, following_count: 42 });
  expect(account.moved).toBeUndefined();
  const pins = await json(warren, `/api/v1/accounts/${found.id}/statuses?pinned=true`, alice.token);
  expect(pins.map((s: any) => s.uri)).toEqual([pinned.id]);
  const statuses = await json(warren, `/api/v1/accounts/${found.id}/statuses`, alice.token);
  expect(statuses.map((s: any) => s.uri).sort()).toEqual([...posts, pinned].map((p) => p.id).sort());
  const tags = await json(warren, `/api/v1/accounts/${found.id}/featured_tags`, alice.token);
  expect(tags.map((t: any) => t.name)).toEqual(["cats"]);
});

test("an account that moved shows the account it moved to, when that one names it back", async () => {
  const dan = peer.actor("dan");
  const dan2 = peer.actor("dan2");
  const liar = peer.actor("liar");
  dan.document = { ...dan.document, movedTo: dan2.id };
  dan2.document = { ...dan2.document, alsoKnownAs: [dan.id] };
  liar.document = { ...liar.document, movedTo: dan2.id };
  const moved = await resolve("dan");
  const unconfirmed = await resolve("liar");
  await warren.t.deps.jobs.drain();
  const account = await json(warren, `/api/v1/accounts/${moved.id}`, alice.token);
  expect(account.moved).toMatchObject({ acct: `dan2@${peer.domain}`, uri: dan2.id });
  const looked = await json(warren, `/api/v1/accounts/lookup?acct=${encodeURIComponent(`dan@${peer.domain}`)}`, alice.token);
  expect(looked.moved.acct).toBe(`dan2@${peer.domain}`);
  expect((await json(warren, `/api/v1/accounts/${unconfirmed.id}`, alice.token)).moved).toBeUndefined();
});

test("a remote profile viewed a day after its last fetch is fetched again in the background", async () => {
  const erin = peer.actor("erin", { name: "Erin" });
  const found = await resolve("erin");
  await warren.t.deps.jobs.drain();
  erin.document = { ...erin.document, name: "Erin Renamed" };
  // Still fresh: viewing it fetches nothing.
  expect((await json(warren, `/api/v1/accounts/${found.id}`, alice.token)).display_name).toBe("Erin");
  await warren.t.deps.jobs.drain();
  expect((await json(warren, `/api/v1/accounts/${found.id}`, alice.token)).display_name).toBe("Erin");
  // A day later (the freshness mark expired, as its one-day TTL makes it): the next view queues a refresh.
  const stored = findAccountByUri(warren.t.deps.store, erin.id)!;
  await new LmdbKvStore(warren.t.deps.store).delete(["warren", "actor_fetched", stored.id]);
  await json(warren, `/api/v1/accounts/${found.id}?again=1`, alice.token);
  await eventually(async () => (await json(warren, `/api/v1/accounts/${found.id}?t=${Date.now()}`, alice.token)).display_name === "Erin Renamed");
});
