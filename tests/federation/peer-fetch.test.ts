// Signed GETs between the test peer (tests/peer/, Mastodon's signing on node:crypto) and a Warren instance
// in secure mode (WARREN_AUTHORIZED_FETCH=true): what a Mastodon server's fetches of actors and collections
// get, signed as Mastodon signs them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";

let warren: Instance;
let peer: Peer;
let mallory: PeerActor;
const aliceUri = () => `http://${warren.domain}/users/alice`;

beforeAll(async () => {
  warren = await startInstance({ WARREN_AUTHORIZED_FETCH: "true" });
  await signedInUser(warren.t, "alice");
  peer = startPeer({ flavour: "mastodon" });
  mallory = peer.actor("mallory");
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("a signed GET of the actor gets the whole actor; an unsigned one the reduced actor", async () => {
  const whole: any = await (await peer.get(mallory, aliceUri())).json();
  expect(whole).toMatchObject({ id: aliceUri(), followers: `${aliceUri()}/followers` });
  const reduced = await peer.get(null, aliceUri());
  expect(reduced.status).toBe(200);
  const body: any = await reduced.json();
  expect(body.publicKey.id).toBe(`${aliceUri()}#main-key`);
  expect(body.followers).toBeUndefined();
});

test("signed GETs of the collections are answered, unsigned ones are 401", async () => {
  for (const name of ["followers", "following", "outbox"]) {
    const url = `${aliceUri()}/${name}`;
    expect((await peer.get(null, url)).status).toBe(401);
    const signed = await peer.get(mallory, url);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ id: url, type: "OrderedCollection" });
  }
});

test("a signature by a key that is not the signer's is refused", async () => {
  const impostor = peer.actor("impostor");
  const forged = await peer.get(impostor, `${aliceUri()}/followers`, { keyId: mallory.keyId });
  expect(forged.status).toBe(401);
});
