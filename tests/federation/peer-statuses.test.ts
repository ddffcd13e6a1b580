// Statuses and interactions from a real Warren (job workers on) as the test peer (tests/peer/, not Fedify)
// receives them: mallory on a Mastodon peer and gina on a GoToSocial peer follow alice; eve (Mastodon peer)
// is mentioned. Addressing per visibility (API.md §14.5), likes, boosts, edits, deletes and profile updates
// are verified by Mastodon's signature rules and checked against each server's parsers; any problem the peer
// finds (tests/peer/problems.ts) fails the test.
import { eventually } from "../helpers/eventually.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor, type PeerRequest } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { PUBLIC, idOf, list } from "../peer/checks/common.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { getFederationKv } from "../../src/store/federation-kv.ts";
import { SIGNATURE_SPEC_PREFIX, SIGNATURE_SPEC_TTL_MS } from "../../src/federation/ld-signatures.ts";

let warren: Instance;
let mastodon: Peer;
let gts: Peer;
let mallory: PeerActor;
let eve: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const aliceUri = () => `http://${warren.domain}/users/alice`;
const followers = () => `${aliceUri()}/followers`;
const send = (token: string, path: string, body: unknown = {}) =>
  json(warren, path, token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** to and cc as lists of ids (JSON-LD compaction sends one value bare). */
const addressing = (object: any) => ({ to: list(object.to).map(idOf), cc: list(object.cc).map(idOf) });

/** The delivery of `type` about `id` to `peer` (waits for it); checked: verified, nothing unexpected. */
async function delivered(peer: Peer, type: string, id: string): Promise<PeerRequest> {
  const about = (r: PeerRequest) => r.activity?.object === id || r.activity?.object?.id === id || r.activity?.object?.object === id;
  const request = await eventually(async () => peer.deliveries(type).find(about));
  expect(request.verification).toMatchObject({ ok: true, owner: aliceUri() });
  expect(problemsIn([request])).toEqual([]);
  return request;
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  mastodon = startPeer({ flavour: "mastodon" });
  gts = startPeer({ flavour: "gotosocial", secure: true });
  mallory = mastodon.actor("mallory");
  eve = mastodon.actor("eve");
  for (const [peer, actor] of [[mastodon, mallory], [gts, gts.actor("gina")]] as const) {
    const follow = { id: peer.newActivityId(actor, "follow"), type: "Follow", actor: actor.id, object: aliceUri() };
    expect((await peer.send(actor, `${aliceUri()}/inbox`, follow)).status).toBe(202);
    await eventually(async () => peer.deliveries("Accept")[0]);
  }
  await json(warren, `/api/v2/search?q=${encodeURIComponent(`@eve@${mastodon.domain}`)}&resolve=true&type=accounts`, alice.token);
});
afterAll(async () => {
  mastodon.stop();
  gts.stop();
  await stopInstance(warren);
});

test("statuses of each visibility reach the followers' servers addressed as Mastodon reads them", async () => {
  const addressed: Record<string, { to: string[]; cc: string[] }> = {
    public: { to: [PUBLIC], cc: [followers(), eve.id] },
    unlisted: { to: [followers()], cc: [PUBLIC, eve.id] },
    private: { to: [followers()], cc: [eve.id] },
  };
  for (const [visibility, expected] of Object.entries(addressed)) {
    const status = await send(alice.token, "/api/v1/statuses", { status: `${visibility} hi @eve@${mastodon.domain} #Warren`, visibility });
    for (const peer of [mastodon, gts]) {
      const create = await delivered(peer, "Create", status.uri);
      expect(create.activity!.object).toMatchObject({ type: "Note", attributedTo: aliceUri() });
      expect(addressing(create.activity!.object)).toEqual(expected);
      // Mastodon LD-signs only what is public or unlisted (item 9); the HTTP signature is checked by delivered().
      if (visibility === "private") expect(create.activity!.signature ?? create.activity!.proof).toBeUndefined();
      else expect(create.activity!.signature).toMatchObject({ type: "RsaSignature2017" });
    }
    // The Mastodon peer's shared inbox gets one copy for mallory and eve; GoToSocial has no shared inbox.
    expect(mastodon.deliveries("Create").find((r) => r.activity?.object?.id === status.uri)!.path).toBe("/inbox");
    expect(gts.deliveries("Create").find((r) => r.activity?.object?.id === status.uri)!.path).toBe("/users/gina/inbox");
  }
  const direct = await send(alice.token, "/api/v1/statuses", { status: `psst @eve@${mastodon.domain}`, visibility: "direct" });
  const create = await delivered(mastodon, "Create", direct.uri);
  expect(addressing(create.activity!.object)).toEqual({ to: [eve.id], cc: [] });
  expect(create.activity!.signature ?? create.activity!.proof).toBeUndefined();
  expect(gts.deliveries("Create").some((r) => r.activity?.object?.id === direct.uri)).toBe(false);
});

test("a like and a boost of a Mastodon status, and undoing the boost", async () => {
  const noteId = `${mallory.id}/statuses/1`;
  mastodon.serve(new URL(noteId).pathname, {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: noteId, type: "Note", attributedTo: mallory.id, content: "<p>hello</p>", published: new Date().toISOString(),
    to: [PUBLIC], cc: [`${mallory.id}/followers`], url: `${mastodon.base}/@mallory/1`,
  });
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(noteId)}&resolve=true&type=statuses`, alice.token);
  const status = found.statuses[0];
  await send(alice.token, `/api/v1/statuses/${status.id}/favourite`);
  expect((await delivered(mastodon, "Like", noteId)).path).toBe("/users/mallory/inbox");
  await send(alice.token, `/api/v1/statuses/${status.id}/reblog`);
  const announce = await delivered(mastodon, "Announce", noteId);
  expect(addressing(announce.activity)).toEqual({ to: [PUBLIC], cc: [mallory.id, followers()] });
  await send(alice.token, `/api/v1/statuses/${status.id}/unreblog`);
  const undo = await delivered(mastodon, "Undo", announce.activity!.id);
  expect(undo.activity!.object).toMatchObject({ type: "Announce", actor: aliceUri() });
});

test("an edit goes out as Update(Note) and a deletion as Delete, to every follower's server", async () => {
  const status = await send(alice.token, "/api/v1/statuses", { status: "first take", visibility: "public" });
  await delivered(gts, "Create", status.uri);
  await json(warren, `/api/v1/statuses/${status.id}`, alice.token, { method: "PUT", body: JSON.stringify({ status: "second take" }), headers: { "content-type": "application/json" } });
  for (const peer of [mastodon, gts]) {
    const update = await delivered(peer, "Update", status.uri);
    expect(update.activity!.object.content).toContain("second take");
  }
  expect((await warren.t.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token })).status).toBe(200);
  for (const peer of [mastodon, gts]) await delivered(peer, "Delete", status.uri);
});

test("a profile update goes out as Update of the actor", async () => {
  const res = await warren.t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH", token: alice.token, body: JSON.stringify({ display_name: "Alice A.", note: "hello there" }), headers: { "content-type": "application/json" },
  });
  expect(res.status).toBe(200);
  for (const peer of [mastodon, gts]) {
    const update = await delivered(peer, "Update", aliceUri());
    expect(update.activity!.object).toMatchObject({ type: "Person", name: "Alice A." });
  }
});

test("each server's signature scheme is remembered for a day, then found again", async () => {
  const remembered = (peer: Peer) => getFederationKv(warren.t.deps.store, [...SIGNATURE_SPEC_PREFIX, peer.base]);
  const now = Date.now();
  // Mastodon 4.4+ takes RFC 9421; the GoToSocial peer refuses it, so Warren fell back to draft-cavage there.
  expect(JSON.parse(remembered(mastodon)!.json)).toBe("rfc9421");
  expect(JSON.parse(remembered(gts)!.json)).toBe("draft-cavage-http-signatures-12");
  for (const peer of [mastodon, gts]) {
    const { expiresAt } = remembered(peer)!;
    expect(expiresAt).toBeGreaterThan(now);
    expect(expiresAt).toBeLessThanOrEqual(now + SIGNATURE_SPEC_TTL_MS);
    expect(getFederationKv(warren.t.deps.store, [...SIGNATURE_SPEC_PREFIX, peer.base], now + SIGNATURE_SPEC_TTL_MS + 1)).toBeUndefined();
  }
});
