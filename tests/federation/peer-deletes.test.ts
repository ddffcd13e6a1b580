// Issue 25 items 2 and 7 against the test peer (tests/peer/, not Fedify) as Mastodon, GoToSocial (secure
// mode) and Misskey. Item 7: a deleted status's Delete reaches the servers of the accounts that boosted,
// favourited or replied to it, though none of them follows its author. Item 2: a deleted account's actor
// Delete reaches every server that knows it, signed with the key those servers already hold, while the actor
// answers 410; a remote account suspended by staff gets a Reject of its Follow (with its id) at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { PUBLIC } from "../peer/checks/common.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { staffUser } from "../http/admin-helpers.ts";

let warren: Instance;
let admin: Awaited<ReturnType<typeof staffUser>>;
let mastodon: Peer;
let gts: Peer;
let misskey: Peer;
const actorUri = (username: string) => `http://${warren.domain}/users/${username}`;
const post = (token: string, path: string, body: unknown = {}) =>
  json(warren, path, token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

beforeAll(async () => {
  warren = await startInstance();
  admin = await staffUser(warren.t, "boss", "Admin");
  mastodon = startPeer({ flavour: "mastodon" });
  gts = startPeer({ flavour: "gotosocial", secure: true });
  misskey = startPeer({ flavour: "misskey" });
});
afterAll(async () => {
  for (const peer of [mastodon, gts, misskey]) peer.stop();
  await stopInstance(warren);
});

/** `actor` follows the local `username` (Accept received, so the peer holds the account's key). */
async function follows(peer: Peer, actor: PeerActor, username: string): Promise<string> {
  const follow = { id: peer.newActivityId(actor, "follow"), type: "Follow", actor: actor.id, object: actorUri(username) };
  expect((await peer.send(actor, `${actorUri(username)}/inbox`, follow)).status).toBe(202);
  await eventually(async () => peer.deliveries("Accept").find((r) => r.activity?.object?.id === follow.id));
  return follow.id;
}

test("a deleted status's Delete reaches the servers of those who boosted, favourited or replied to it", async () => {
  const alice = await signedInUser(warren.t, "alice");
  const status = await post(alice.token, "/api/v1/statuses", { status: "boost me", visibility: "public" });
  const [ann, gus, mia] = [mastodon.actor("ann"), gts.actor("gus"), misskey.actor("mia")];
  const inbox = `${actorUri("alice")}/inbox`;
  const announce = { id: mastodon.newActivityId(ann, "announce"), type: "Announce", actor: ann.id, object: status.uri, to: [PUBLIC], cc: [ann.followers], published: new Date().toISOString() };
  expect((await mastodon.send(ann, inbox, announce)).status).toBe(202);
  expect((await gts.send(gus, inbox, { id: gts.newActivityId(gus, "like"), type: "Like", actor: gus.id, object: status.uri })).status).toBe(202);
  const replyId = misskey.newActivityId(mia, "note");
  const reply = { id: replyId, type: "Note", attributedTo: mia.id, content: "<p>nice</p>", inReplyTo: status.uri, published: new Date().toISOString(), to: [PUBLIC], cc: [actorUri("alice")] };
  expect((await misskey.send(mia, inbox, { id: `${replyId}/activity`, type: "Create", actor: mia.id, object: reply, to: reply.to, cc: reply.cc })).status).toBe(202);
  await eventually(async () => {
    const seen = await json(warren, `/api/v1/statuses/${status.id}`, alice.token);
    return seen.reblogs_count === 1 && seen.favourites_count === 1 && seen.replies_count === 1;
  });

  await json(warren, `/api/v1/statuses/${status.id}`, alice.token, { method: "DELETE" });
  for (const peer of [mastodon, gts, misskey]) {
    const deleted = await eventually(async () => peer.deliveries("Delete").find((r) => r.activity?.object?.id === status.uri));
    expect(deleted.verification).toMatchObject({ ok: true, owner: actorUri("alice") });
    expect(problemsIn([deleted])).toEqual([]);
  }
});

test("a deleted account's actor Delete reaches followers', followings' and interacted servers, signed and verifiable", async () => {
  const zed = await signedInUser(warren.t, "zed");
  await follows(mastodon, mastodon.actor("max"), "zed");
  gts.actor("gil");
  const gil = (await json(warren, `/api/v2/search?q=${encodeURIComponent(`@gil@${gts.domain}`)}&resolve=true&type=accounts`, zed.token)).accounts[0];
  await post(zed.token, `/api/v1/accounts/${gil.id}/follow`);
  await eventually(async () => gts.deliveries("Follow").find((r) => r.activity?.actor === actorUri("zed")));
  const kim = misskey.actor("kim");
  const noteId = `${kim.id}/notes/1`;
  misskey.serve(new URL(noteId).pathname, { "@context": "https://www.w3.org/ns/activitystreams", id: noteId, type: "Note", attributedTo: kim.id, content: "<p>hi</p>", published: new Date().toISOString(), to: [PUBLIC] });
  const note = (await json(warren, `/api/v2/search?q=${encodeURIComponent(noteId)}&resolve=true&type=statuses`, zed.token)).statuses[0];
  await post(zed.token, `/api/v1/statuses/${note.id}/favourite`);
  await eventually(async () => misskey.deliveries("Like").find((r) => r.activity?.actor === actorUri("zed")));

  expect((await warren.t.request(`/api/v1/admin/accounts/${zed.id}/action`, { method: "POST", token: admin.token, json: { type: "suspend" } })).status).toBe(200);
  expect((await warren.t.request(`/api/v1/admin/accounts/${zed.id}`, { method: "DELETE", token: admin.token })).status).toBe(200);
  for (const peer of [mastodon, gts, misskey]) {
    const deleted = await eventually(async () => peer.deliveries("Delete").find((r) => r.activity?.object === actorUri("zed")));
    expect(deleted.activity).toMatchObject({ type: "Delete", actor: actorUri("zed") });
    // Verified with the key the peer already held, though the actor itself is gone.
    expect(deleted.verification).toMatchObject({ ok: true, owner: actorUri("zed") });
    expect(problemsIn([deleted])).toEqual([]);
  }
  await warren.t.deps.jobs.drain();
  expect((await mastodon.get(null, actorUri("zed"))).status).toBe(410);
  // The key the Delete was signed with is still the account's: a later delivery would verify the same way.
  const again = await eventually(async () => mastodon.deliveries("Delete").find((r) => r.activity?.object === actorUri("zed")));
  expect(again.verification.keyId).toBe(`${actorUri("zed")}#main-key`);
});

test("staff suspending a remote follower: it gets a Reject of its own Follow at once; unsuspending does not restore it", async () => {
  const uma = await signedInUser(warren.t, "uma");
  for (const peer of [mastodon, gts, misskey]) {
    const troll = peer.actor(`troll${peer.flavour}`);
    const followId = await follows(peer, troll, "uma");
    const remote = (await json(warren, `/api/v2/search?q=${encodeURIComponent(`@${troll.username}@${peer.domain}`)}&resolve=true&type=accounts`, uma.token)).accounts[0];
    expect((await warren.t.request(`/api/v1/admin/accounts/${remote.id}/action`, { method: "POST", token: admin.token, json: { type: "suspend" } })).status).toBe(200);
    const reject = await eventually(async () => peer.deliveries("Reject").find((r) => r.activity?.object?.id === followId));
    expect(reject.activity).toMatchObject({ actor: actorUri("uma"), object: { type: "Follow", actor: troll.id, object: actorUri("uma") } });
    expect(reject.verification.ok).toBe(true);
    expect(problemsIn([reject])).toEqual([]);
    expect((await warren.t.request(`/api/v1/admin/accounts/${remote.id}/unsuspend`, { method: "POST", token: admin.token })).status).toBe(200);
    expect(await json(warren, `/api/v1/accounts/${uma.id}/followers`, uma.token)).toEqual([]);
  }
});
