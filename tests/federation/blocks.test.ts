// Blocks across servers: two Warren instances on loopback (a block crossing over ends the follows both ways
// on the other side and shows there as blocked_by; unblocking lifts it), and the hand-written fake peer (what
// goes over the wire for a block and an unblock; its own Block and Undo(Block) of a local account; a Block
// signed by someone else than its actor refused). Job workers on.
import { expect, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import type { FakeActor } from "../helpers/fake-peer.ts";
import { json, relationship, resolveAccount, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

const { a, b, peer } = federatedWorld({ instances: 2 });

const search = (i: Instance, token: string, q: string) =>
  json(i, `/api/v2/search?q=${encodeURIComponent(q)}&resolve=true&type=accounts`, token).then((found) => found.accounts[0]);

/** What the peer's inbox of `actor` got of `type`, after the first `skip` requests. */
const receivedBy = (actor: FakeActor, type: string, skip = 0) =>
  peer.received.slice(skip).filter((r) => r.path === new URL(actor.inbox).pathname && r.body?.type === type);

/** `actor` follows the local `username` on `i` (unlocked: accepted at once). */
async function peerFollows(i: Instance, actor: FakeActor, username: string, local: { id: string; token: string }) {
  const id = `${actor.id}#follows/${crypto.randomUUID()}`;
  const res = await peer.send(actor, `http://${i.domain}/users/${username}/inbox`, { id, type: "Follow", actor: actor.id, object: `http://${i.domain}/users/${username}` });
  expect(res.status).toBe(202);
  await eventually(async () => receivedBy(actor, "Accept").find((r) => (r.body.object?.id ?? r.body.object) === id));
  expect((await json(i, `/api/v1/accounts/${local.id}/followers`, local.token)).length).toBe(1);
}

/** The local user follows the peer's `actor`, which accepts by hand. */
async function followsPeer(i: Instance, local: { username: string; token: string }, actor: FakeActor, remoteId: string) {
  await json(i, `/api/v1/accounts/${remoteId}/follow`, local.token, { method: "POST" });
  const follow = await eventually(async () => receivedBy(actor, "Follow").find((r) => r.body.actor === `http://${i.domain}/users/${local.username}`));
  const res = await peer.send(actor, `http://${i.domain}/users/${local.username}/inbox`, {
    id: `${actor.id}#accepts/${crypto.randomUUID()}`,
    type: "Accept",
    actor: actor.id,
    object: follow.body,
  });
  expect(res.status).toBe(202);
  await eventually(async () => (await relationship(i, local.token, remoteId)).following);
}

test("a block crosses over: the other side ends the follows both ways and shows blocked_by; unblocking lifts it", async () => {
  const alice = await signedInUser(a.t, "alice");
  const bob = await signedInUser(b.t, "bob");
  const bobOnA = await resolveAccount(a, alice.token, "bob", b);
  const aliceOnB = await resolveAccount(b, bob.token, "alice", a);
  await json(a, `/api/v1/accounts/${bobOnA.id}/follow`, alice.token, { method: "POST" });
  await json(b, `/api/v1/accounts/${aliceOnB.id}/follow`, bob.token, { method: "POST" });
  await eventually(async () => (await relationship(a, alice.token, bobOnA.id)).following);
  await eventually(async () => (await relationship(b, bob.token, aliceOnB.id)).following);
  await eventually(async () => (await relationship(b, bob.token, aliceOnB.id)).followed_by);

  const blocked = await json(a, `/api/v1/accounts/${bobOnA.id}/block`, alice.token, { method: "POST" });
  expect(blocked).toMatchObject({ blocking: true, following: false, followed_by: false });

  const onB = await eventually(async () => {
    const r = await relationship(b, bob.token, aliceOnB.id);
    return r.blocked_by ? r : undefined;
  });
  expect(onB).toMatchObject({ blocked_by: true, blocking: false, following: false, followed_by: false, requested: false });
  expect(await json(b, `/api/v1/accounts/${bob.id}/followers`, bob.token)).toEqual([]);
  expect(await json(b, `/api/v1/accounts/${bob.id}/following`, bob.token)).toEqual([]);
  // The blocked side cannot follow again.
  const again = await b.t.request(`/api/v1/accounts/${aliceOnB.id}/follow`, { method: "POST", token: bob.token });
  expect(again.status).toBe(403);

  const unblocked = await json(a, `/api/v1/accounts/${bobOnA.id}/unblock`, alice.token, { method: "POST" });
  expect(unblocked.blocking).toBe(false);
  await eventually(async () => !(await relationship(b, bob.token, aliceOnB.id)).blocked_by);
  expect((await relationship(b, bob.token, aliceOnB.id)).following).toBe(false);
});

test("on the wire: a local block is one Block to the target (no Undo or Reject besides); unblocking sends Undo(Block)", async () => {
  const amy = await signedInUser(a.t, "amy");
  const mallory = await peer.actor("mallory");
  await peerFollows(a, mallory, "amy", amy);
  const malloryOnA = await search(a, amy.token, `@mallory@${peer.domain}`);
  const before = peer.received.length;

  await json(a, `/api/v1/accounts/${malloryOnA.id}/block`, amy.token, { method: "POST" });
  const block = await eventually(async () => receivedBy(mallory, "Block", before)[0]);
  expect(block.body.actor).toBe(`http://${a.domain}/users/amy`);
  expect(block.body.object).toBe(mallory.id);
  expect(block.body.id).toStartWith(`http://${a.domain}/users/amy/blocks/${malloryOnA.id}/`);
  expect(await json(a, `/api/v1/accounts/${amy.id}/followers`, amy.token)).toEqual([]);
  await a.t.deps.jobs.drain();
  const sent = peer.received.slice(before).map((r) => r.body?.type);
  expect(sent).toEqual(["Block"]);

  await json(a, `/api/v1/accounts/${malloryOnA.id}/unblock`, amy.token, { method: "POST" });
  const undo = await eventually(async () => receivedBy(mallory, "Undo", before)[0]);
  expect(undo.body.actor).toBe(`http://${a.domain}/users/amy`);
  expect(undo.body.object).toMatchObject({ id: block.body.id, type: "Block", actor: `http://${a.domain}/users/amy`, object: mallory.id });
});

test("an incoming Block ends the follows both ways and refuses the blocker's Follow; its Undo lifts it", async () => {
  const dora = await signedInUser(a.t, "dora");
  const peggy = await peer.actor("peggy");
  const peggyOnA = await search(a, dora.token, `@peggy@${peer.domain}`);
  await peerFollows(a, peggy, "dora", dora);
  await followsPeer(a, dora, peggy, peggyOnA.id);
  expect(await relationship(a, dora.token, peggyOnA.id)).toMatchObject({ following: true, followed_by: true });

  const blockActivity = { id: `${peggy.id}#blocks/1`, type: "Block", actor: peggy.id, object: `http://${a.domain}/users/dora` };
  expect((await peer.send(peggy, `http://${a.domain}/users/dora/inbox`, blockActivity)).status).toBe(202);
  const blocked = await eventually(async () => {
    const r = await relationship(a, dora.token, peggyOnA.id);
    return r.blocked_by ? r : undefined;
  });
  expect(blocked).toMatchObject({ blocked_by: true, blocking: false, following: false, followed_by: false });
  expect(await json(a, `/api/v1/accounts/${dora.id}/followers`, dora.token)).toEqual([]);

  // The blocker asks to follow again: refused with a Reject.
  const before = peer.received.length;
  const follow = { id: `${peggy.id}#follows/again`, type: "Follow", actor: peggy.id, object: `http://${a.domain}/users/dora` };
  expect((await peer.send(peggy, `http://${a.domain}/users/dora/inbox`, follow)).status).toBe(202);
  const reject = await eventually(async () => receivedBy(peggy, "Reject", before)[0]);
  expect(reject.body.object.id ?? reject.body.object).toBe(follow.id);
  expect(await json(a, `/api/v1/accounts/${dora.id}/followers`, dora.token)).toEqual([]);

  const undo = { id: `${peggy.id}#blocks/1/undo`, type: "Undo", actor: peggy.id, object: blockActivity };
  expect((await peer.send(peggy, `http://${a.domain}/users/dora/inbox`, undo)).status).toBe(202);
  await eventually(async () => !(await relationship(a, dora.token, peggyOnA.id)).blocked_by);
});

test("a Block signed by another actor than its own is refused and changes nothing", async () => {
  const erin = await signedInUser(a.t, "erin");
  const victim = await peer.actor("victim");
  const eve = await peer.actor("eve");
  const victimOnA = await search(a, erin.token, `@victim@${peer.domain}`);
  const eveOnA = await search(a, erin.token, `@eve@${peer.domain}`);
  const forged = { id: `${victim.id}#blocks/forged`, type: "Block", actor: victim.id, object: `http://${a.domain}/users/erin` };
  expect((await peer.send(eve, `http://${a.domain}/users/erin/inbox`, forged)).status).toBe(401);
  // The same Block signed by its actor is taken, so the refusal above was the signer's doing.
  const fromEve = { ...forged, id: `${eve.id}#blocks/1`, actor: eve.id };
  expect((await peer.send(eve, `http://${a.domain}/users/erin/inbox`, fromEve)).status).toBe(202);
  await eventually(async () => (await relationship(a, erin.token, eveOnA.id)).blocked_by);
  await a.t.deps.jobs.drain();
  expect((await relationship(a, erin.token, victimOnA.id)).blocked_by).toBe(false);
});
