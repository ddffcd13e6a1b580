// Follows and blocks between a real Warren (job workers on) and the test peer (tests/peer/, not Fedify)
// playing Mastodon, GoToSocial (secure mode: every GET signed) and Misskey. Every request Warren sends is
// verified by Mastodon's signature rules and every activity checked against that server's parsers; what the
// peer finds beyond the known findings of issue 25 (tests/peer/known.ts) fails the test.
import { eventually } from "../helpers/eventually.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { unexpectedProblems } from "../peer/known.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";

let warren: Instance;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const peers: Peer[] = [];
const aliceUri = () => `http://${warren.domain}/users/alice`;

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  peers.push(startPeer({ flavour: "mastodon" }), startPeer({ flavour: "gotosocial", secure: true }), startPeer({ flavour: "misskey" }));
});
afterAll(async () => {
  for (const peer of peers) peer.stop();
  await stopInstance(warren);
});

async function resolve(peer: Peer, username: string): Promise<any> {
  const q = encodeURIComponent(`@${username}@${peer.domain}`);
  const found = await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, alice.token);
  expect(found.accounts).toHaveLength(1);
  return found.accounts[0];
}

test("following an account on each server: a verified Follow it understands, and its Accept makes it a follow", async () => {
  for (const peer of peers) {
    const bob = peer.actor("bob");
    const remote = await resolve(peer, "bob");
    expect(remote.url).toBe(bob.profileUrl);
    await json(warren, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
    await eventually(async () => (await relationship(warren, alice.token, remote.id)).following);
    const [follow] = peer.deliveries("Follow");
    expect(follow!.activity).toMatchObject({ actor: aliceUri(), object: bob.id });
    // Mastodon 4.4 takes RFC 9421; the others refuse it and Warren falls back to draft-cavage.
    expect(follow!.verification).toMatchObject({ ok: true, scheme: peer.flavour === "mastodon" ? "rfc9421" : "draft-cavage", owner: aliceUri() });
    // Warren's GETs of the actor (and, on GoToSocial, of its key) are signed and verify.
    const gets = peer.requests.filter((r) => r.method === "GET" && r.path !== "/.well-known/webfinger");
    // WebFinger is fetched unsigned, and like every request says who asks (issue 25 item 10).
    expect(peer.requests.find((r) => r.path === "/.well-known/webfinger")!.headers.get("user-agent")).toBe(`Warren/0.1.0 (+http://${warren.domain}/)`);
    expect(gets.length).toBeGreaterThan(0);
    for (const get of gets) expect(get.verification).toMatchObject({ ok: true, scheme: "draft-cavage" });
    expect(bob.followers.size).toBe(1);
    expect(unexpectedProblems(peer.requests)).toEqual([]);
  }
});

test("an account on each server follows alice: Warren's Accept embeds the Follow with its id and verifies", async () => {
  for (const peer of peers) {
    const carol: PeerActor = peer.actor("carol");
    const follow = { id: peer.newActivityId(carol, "follow"), type: "Follow", actor: carol.id, object: aliceUri() };
    expect((await peer.send(carol, `${aliceUri()}/inbox`, follow)).status).toBe(202);
    const accept = await eventually(async () => peer.deliveries("Accept").find((r) => r.activity?.object?.id === follow.id));
    expect(accept.activity!.object).toMatchObject({ type: "Follow", actor: carol.id, object: aliceUri() });
    expect(accept.verification.ok).toBe(true);
    expect(unexpectedProblems([accept])).toEqual([]);
  }
  const followers = await json(warren, `/api/v1/accounts/${alice.id}/followers`, alice.token);
  expect(followers.map((a: any) => a.acct).sort()).toEqual(peers.map((p) => `carol@${p.domain}`).sort());
});

test("blocking and unblocking an account on each server: Block and Undo(Block) arrive verified", async () => {
  for (const peer of peers) {
    peer.actor("dave");
    const remote = await resolve(peer, "dave");
    await json(warren, `/api/v1/accounts/${remote.id}/block`, alice.token, { method: "POST" });
    const block = await eventually(async () => peer.deliveries("Block")[0]);
    expect(block.activity).toMatchObject({ actor: aliceUri(), object: remote.uri });
    await json(warren, `/api/v1/accounts/${remote.id}/unblock`, alice.token, { method: "POST" });
    const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.type === "Block"));
    expect(undo.activity!.object).toMatchObject({ actor: aliceUri(), object: remote.uri });
    for (const r of [block, undo]) expect(r.verification.ok).toBe(true);
    expect(unexpectedProblems([block, undo])).toEqual([]);
  }
});
