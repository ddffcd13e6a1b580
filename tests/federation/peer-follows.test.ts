// Follows and blocks between a real Warren (job workers on) and the test peer (tests/peer/, not Fedify)
// playing Mastodon, GoToSocial (secure mode: every GET signed) and Misskey. Every request Warren sends is
// verified by Mastodon's signature rules and every activity checked against that server's parsers; any problem
// the peer finds (tests/peer/problems.ts) fails the test.
import { eventually } from "../helpers/eventually.ts";
import { expect, test } from "bun:test";
import type { PeerActor } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { json, relationship } from "../helpers/federation.ts";
import { flavouredPeerWorld } from "../peer/world.ts";

const world = flavouredPeerWorld();

test("following an account on each server: a verified Follow it understands, and its Accept makes it a follow", async () => {
  for (const peer of world.peers) {
    const bob = peer.actor("bob");
    const remote = await world.resolve(peer, "bob");
    expect(remote.url).toBe(bob.profileUrl);
    await json(world.warren, `/api/v1/accounts/${remote.id}/follow`, world.alice.token, { method: "POST" });
    await eventually(async () => (await relationship(world.warren, world.alice.token, remote.id)).following);
    const [follow] = peer.deliveries("Follow");
    expect(follow!.activity).toMatchObject({ actor: world.aliceUri(), object: bob.id });
    // Mastodon 4.4 takes RFC 9421; the others refuse it and Warren falls back to draft-cavage.
    expect(follow!.verification).toMatchObject({ ok: true, scheme: peer.flavour === "mastodon" ? "rfc9421" : "draft-cavage", owner: world.aliceUri() });
    // Warren's GETs of the actor (and, on GoToSocial, of its key) are signed and verify.
    const gets = peer.requests.filter((r) => r.method === "GET" && r.path !== "/.well-known/webfinger");
    // WebFinger is fetched unsigned, and like every request says who asks (issue 25 item 10).
    expect(peer.requests.find((r) => r.path === "/.well-known/webfinger")!.headers.get("user-agent")).toBe(`Warren/0.1.0 (+http://${world.warren.domain}/)`);
    expect(gets.length).toBeGreaterThan(0);
    for (const get of gets) expect(get.verification).toMatchObject({ ok: true, scheme: "draft-cavage" });
    expect(bob.followers.size).toBe(1);
    expect(problemsIn(peer.requests)).toEqual([]);
  }
});

test("an account on each server follows alice: Warren's Accept embeds the Follow with its id and verifies", async () => {
  for (const peer of world.peers) {
    const carol: PeerActor = peer.actor("carol");
    const follow = { id: peer.newActivityId(carol, "follow"), type: "Follow", actor: carol.id, object: world.aliceUri() };
    expect((await peer.send(carol, `${world.aliceUri()}/inbox`, follow)).status).toBe(202);
    const accept = await eventually(async () => peer.deliveries("Accept").find((r) => r.activity?.object?.id === follow.id));
    expect(accept.activity!.object).toMatchObject({ type: "Follow", actor: carol.id, object: world.aliceUri() });
    expect(accept.verification.ok).toBe(true);
    expect(problemsIn([accept])).toEqual([]);
  }
  const followers = await json(world.warren, `/api/v1/accounts/${world.alice.id}/followers`, world.alice.token);
  expect(followers.map((a: any) => a.acct).sort()).toEqual(world.peers.map((p) => `carol@${p.domain}`).sort());
});

test("blocking and unblocking an account on each server: Block and Undo(Block) arrive verified", async () => {
  for (const peer of world.peers) {
    peer.actor("dave");
    const remote = await world.resolve(peer, "dave");
    await json(world.warren, `/api/v1/accounts/${remote.id}/block`, world.alice.token, { method: "POST" });
    const block = await eventually(async () => peer.deliveries("Block")[0]);
    expect(block.activity).toMatchObject({ actor: world.aliceUri(), object: remote.uri });
    await json(world.warren, `/api/v1/accounts/${remote.id}/unblock`, world.alice.token, { method: "POST" });
    const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.type === "Block"));
    expect(undo.activity!.object).toMatchObject({ actor: world.aliceUri(), object: remote.uri });
    for (const r of [block, undo]) expect(r.verification.ok).toBe(true);
    expect(problemsIn([block, undo])).toEqual([]);
  }
});
