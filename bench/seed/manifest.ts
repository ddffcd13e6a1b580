// What the seeder leaves next to the data (`<data>/bench-seed.json`) for the benchmark scenarios: how the
// instance was made, and the accounts, tokens and ids the scenarios need. Tokens are kept raw here: they only
// sign into a throw-away benchmark instance.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const MANIFEST_FILE = "bench-seed.json";

export interface SeededAccount {
  id: string;
  username: string;
  token: string;
}

export interface SeedManifest {
  version: 1;
  /** The options that made it: the same ones make the same instance (ids aside, which are times). */
  seed: number;
  accounts: number;
  statuses: number;
  /** The URL the seeder's config had: local accounts' URIs are built on it. */
  url: string;
  /** Password of every seeded account. */
  password: string;
  counts: { follows: number; posts: number; replies: number; reblogs: number; favourites: number; jobs: number };
  seconds: { accounts: number; follows: number; statuses: number; total: number };
  /** Size of the LMDB file on disk after seeding. */
  dataBytes: number;
  /** Every seeded account with a user token (read write follow push), in creation order. */
  users: SeededAccount[];
  /** The account with the most followers, their number, and its follower whose home the fan-out reaches last. */
  largest: { index: number; followers: number; lastFollower: number };
  /** The account with the most statuses. */
  busiest: { index: number; statuses: number };
  /** A public status with exactly `replies` replies below it (a tree), for GET /statuses/:id/context. */
  thread: { rootId: string; replies: number };
  /** The most used hashtag (without #). */
  tag: string;
}

export function readManifest(dataDir: string): SeedManifest {
  return JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), "utf8")) as SeedManifest;
}

export function writeManifest(dataDir: string, manifest: SeedManifest): void {
  writeFileSync(join(dataDir, MANIFEST_FILE), JSON.stringify(manifest));
}
