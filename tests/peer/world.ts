// A real Warren (job workers on) with alice, and the test peer in each flavour — Mastodon, GoToSocial (secure
// mode: every GET signed) and Misskey — started before a file's tests and stopped after them.
import { afterAll, beforeAll, expect } from "bun:test";
import { startPeer, type Peer } from "./server.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";

export interface PeerWorld {
  warren: Instance;
  alice: Awaited<ReturnType<typeof signedInUser>>;
  peers: Peer[];
  /** alice's actor URI. */
  aliceUri(): string;
  /** The peer's account `username` as Warren resolves it (search with resolve=true): exactly one. */
  resolve(peer: Peer, username: string): Promise<any>;
}

export function flavouredPeerWorld(): PeerWorld {
  const world = {
    peers: [] as Peer[],
    aliceUri: () => `http://${world.warren.domain}/users/alice`,
    async resolve(peer: Peer, username: string) {
      const q = encodeURIComponent(`@${username}@${peer.domain}`);
      const found = await json(world.warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, world.alice.token);
      expect(found.accounts).toHaveLength(1);
      return found.accounts[0];
    },
  } as PeerWorld;
  beforeAll(async () => {
    world.warren = await startInstance();
    world.alice = await signedInUser(world.warren.t, "alice");
    world.peers.push(startPeer({ flavour: "mastodon" }), startPeer({ flavour: "gotosocial", secure: true }), startPeer({ flavour: "misskey" }));
  });
  afterAll(async () => {
    for (const peer of world.peers) peer.stop();
    await stopInstance(world.warren);
  });
  return world;
}
