// Issue 25 item 1 against the test peer (tests/peer/, not Fedify) as Mastodon, GoToSocial (secure mode) and
// Misskey: every Follow and Block Warren sends has an id of its own (not a fragment of the actor), served
// while the relationship stands and 404 after; every Undo and Reject embeds the very id that was sent or
// received, so a server that matches by id (GoToSocial, Pleroma) undoes what it stored.
import { expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startPeer } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { json, relationship } from "../helpers/federation.ts";
import { flavouredPeerWorld } from "../peer/world.ts";

const world = flavouredPeerWorld();

test("unfollow: the Undo embeds the Follow's own id, the peer drops the follower, and the id stops being served", async () => {
  for (const peer of world.peers) {
    const bob = peer.actor("bob");
    const remote = await world.resolve(peer, "bob");
    await json(world.warren, `/api/v1/accounts/${remote.id}/follow`, world.alice.token, { method: "POST" });
    await eventually(async () => (await relationship(world.warren, world.alice.token, remote.id)).following);
    const follow = peer.deliveries("Follow")[0]!.activity!;
    expect(follow.id).toStartWith(`${world.aliceUri()}/follows/${remote.id}/`);
    // Dereferenceable while it stands (signed by the followed account's server, as secure mode wants).
    const served = await peer.get(bob, follow.id);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ id: follow.id, type: "Follow", actor: world.aliceUri(), object: bob.id });

    await json(world.warren, `/api/v1/accounts/${remote.id}/unfollow`, world.alice.token, { method: "POST" });
    const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.type === "Follow"));
    expect(undo.activity!.object).toMatchObject({ id: follow.id, type: "Follow", actor: world.aliceUri(), object: bob.id });
    expect(bob.followers.size).toBe(0); // the peer matched the Follow by id, as GoToSocial does
    expect((await peer.get(bob, follow.id)).status).toBe(404);
    expect(problemsIn(peer.requests)).toEqual([]);
  }
});

test("removing a follower: the Reject embeds the id of the follower's own Follow", async () => {
  for (const peer of world.peers) {
    const carol = peer.actor("carol");
    const follow = { id: peer.newActivityId(carol, "follow"), type: "Follow", actor: carol.id, object: world.aliceUri() };
    expect((await peer.send(carol, `${world.aliceUri()}/inbox`, follow)).status).toBe(202);
    await eventually(async () => peer.deliveries("Accept").find((r) => r.activity?.object?.id === follow.id));
    const remote = await world.resolve(peer, "carol");
    await json(world.warren, `/api/v1/accounts/${remote.id}/remove_from_followers`, world.alice.token, { method: "POST" });
    const reject = await eventually(async () => peer.deliveries("Reject").find((r) => r.activity?.actor === world.aliceUri()));
    expect(reject.activity!.object).toMatchObject({ id: follow.id, type: "Follow", actor: carol.id, object: world.aliceUri() });
    expect(problemsIn([reject])).toEqual([]);
  }
});

test("unblock: the Undo embeds the Block's own id; the Block is served only to the blocked account's server", async () => {
  for (const peer of world.peers) {
    const dave = peer.actor("dave");
    const remote = await world.resolve(peer, "dave");
    await json(world.warren, `/api/v1/accounts/${remote.id}/block`, world.alice.token, { method: "POST" });
    const block = (await eventually(async () => peer.deliveries("Block")[0])).activity!;
    expect(block.id).toStartWith(`${world.aliceUri()}/blocks/${remote.id}/`);
    expect((await peer.get(dave, block.id)).status).toBe(200);
    // Unsigned, or signed by another server: as if there were no such block.
    expect((await peer.get(null, block.id)).status).toBe(404);
    const other = startPeer();
    try {
      expect((await other.get(other.actor("eve"), block.id)).status).toBe(404);
    } finally {
      other.stop();
    }
    await json(world.warren, `/api/v1/accounts/${remote.id}/unblock`, world.alice.token, { method: "POST" });
    const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.type === "Block"));
    expect(undo.activity!.object).toMatchObject({ id: block.id, type: "Block", actor: world.aliceUri(), object: dave.id });
    expect((await peer.get(dave, block.id)).status).toBe(404);
    expect(problemsIn(peer.requests)).toEqual([]);
  }
});

test("an Accept naming our Follow by its id alone (no embedded Follow) makes the request a follow", async () => {
  for (const peer of world.peers) {
    const lou = peer.actor("lou", { locked: true });
    const remote = await world.resolve(peer, "lou");
    expect((await json(world.warren, `/api/v1/accounts/${remote.id}/follow`, world.alice.token, { method: "POST" })).requested).toBe(true);
    const follow = (await eventually(async () => peer.deliveries("Follow").find((r) => r.activity?.object === lou.id))).activity!;
    const accept = { id: peer.newActivityId(lou, "accept"), type: "Accept", actor: lou.id, object: follow.id };
    expect((await peer.send(lou, `${world.aliceUri()}/inbox`, accept)).status).toBe(202);
    await eventually(async () => (await relationship(world.warren, world.alice.token, remote.id)).following);
  }
});

test("a follow stored before ids were kept is undone under its fallback id, served like the others", async () => {
  const peer = world.peers[1]!; // GoToSocial: matches the Undo by id
  const ned = peer.actor("ned");
  const remote = await world.resolve(peer, "ned");
  await json(world.warren, `/api/v1/accounts/${remote.id}/follow`, world.alice.token, { method: "POST" });
  await eventually(async () => (await relationship(world.warren, world.alice.token, remote.id)).following);
  // As an older Warren stored it: no uri.
  const store = world.warren.t.deps.store;
  const record = store.db.follows.get([world.alice.id, remote.id]);
  await store.write(() => store.db.follows.put([world.alice.id, remote.id], { ...record, uri: null }));
  const fallback = `${world.aliceUri()}/follows/${remote.id}/${record.id}`;
  expect((await peer.get(ned, fallback)).status).toBe(200);
  await json(world.warren, `/api/v1/accounts/${remote.id}/unfollow`, world.alice.token, { method: "POST" });
  const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.object === ned.id));
  expect(undo.activity!.object.id).toBe(fallback);
});
