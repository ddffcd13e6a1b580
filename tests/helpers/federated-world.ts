// Instances and fake peers for one federation test file, like world.ts for one app: `federatedWorld()`
// registers the file's beforeAll/afterAll, and the objects it returns are filled in by beforeAll, so a file
// can destructure them at the top (`const { a, b, peer } = federatedWorld({ instances: 2 })`).
import { afterAll, beforeAll } from "bun:test";
import { startFakePeer, type FakePeer, type FakePeerOptions } from "./fake-peer.ts";
import { startInstance, stopInstance, type Instance } from "./federation.ts";

export interface FederatedWorld {
  /** the first instance, and the second when two were asked for */
  a: Instance;
  b: Instance;
  /** the first fake peer, and the second when two were asked for */
  peer: FakePeer;
  other: FakePeer;
}

export interface FederatedWorldOptions {
  /** Instances to start: 1 unless told. */
  instances?: 0 | 1 | 2;
  /** Fake peers to start: 1 unless told. */
  peers?: 0 | 1 | 2;
  /** Configuration of the first instance (startInstance's environment). */
  env?: Record<string, string>;
  peer?: FakePeerOptions;
}

export function federatedWorld(options: FederatedWorldOptions = {}): FederatedWorld {
  const world = { a: {}, b: {}, peer: {}, other: {} } as FederatedWorld;
  let instances: Instance[] = [];
  let peers: FakePeer[] = [];
  beforeAll(async () => {
    [instances, peers] = await Promise.all([
      Promise.all(Array.from({ length: options.instances ?? 1 }, (_, i) => startInstance(i === 0 ? options.env : {}))),
      Promise.all(Array.from({ length: options.peers ?? 1 }, () => startFakePeer(options.peer))),
    ]);
    instances.forEach((instance, i) => Object.assign(i === 0 ? world.a : world.b, instance));
    peers.forEach((peer, i) => Object.assign(i === 0 ? world.peer : world.other, peer));
  }, 60_000);
  afterAll(async () => {
    for (const peer of peers) peer.stop();
    await Promise.all(instances.map(stopInstance));
  });
  return world;
}
