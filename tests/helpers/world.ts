// One seeded world for the many files that need the same users: an app on a temporary data directory with
// alice, bob and carol, each confirmed and approved and holding a token obtained through the API, as a client.
// `seededWorld()` registers the file's beforeAll/afterAll; the objects it returns are filled in by beforeAll,
// so a file can destructure them at the top (`const { t, alice, bob } = seededWorld()`).
import { afterAll, beforeAll } from "bun:test";
import { startTestApp, type TestApp } from "./app.ts";
import { signedInUser } from "./clients.ts";

export type WorldUser = Awaited<ReturnType<typeof signedInUser>>;
export type WorldName = "alice" | "bob" | "carol";

export type World = { t: TestApp } & Record<WorldName, WorldUser>;

export interface WorldOptions {
  /** Configuration of the app (startTestApp's environment). */
  env?: Record<string, string>;
  /** Who to create (all three unless told): each costs an argon2 hash and a key pair. */
  users?: readonly WorldName[];
}

export function seededWorld(options: WorldOptions = {}): World {
  const world = { t: {}, alice: {}, bob: {}, carol: {} } as World;
  beforeAll(async () => {
    Object.assign(world.t, await startTestApp(options.env));
    for (const name of options.users ?? (["alice", "bob", "carol"] as const)) {
      Object.assign(world[name], await signedInUser(world.t, name));
    }
  }, 60_000);
  afterAll(() => world.t.close());
  return world;
}
