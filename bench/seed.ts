// `npm run bench:seed -- --accounts 10000 --statuses 1000000 [--seed 1] [--data DIR]`: builds a deterministic
// benchmark instance through the domain actions (accounts, a heavy-tailed follow graph, posts, replies,
// mentions, hashtags, every visibility, reblogs, favourites; see bench/seed/) into a Warren data directory,
// with the accounts, tokens and ids the scale scenarios need in DIR/bench-seed.json. The same options make the
// same instance (ids are times, so they differ). `npm run bench -- --data DIR` measures it; see
// docs/benchmarks.md. DIR defaults to .bench/seeds/a<accounts>-s<statuses>-seed<seed>; it must not exist yet.
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config.ts";
import { federationRemote } from "../src/federation/remote.ts";
import { openStore } from "../src/store/db.ts";
import { followerIdsOf } from "../src/store/relationships.ts";
import { createAccounts, SEED_PASSWORD } from "./seed/accounts.ts";
import { createFollows, planFollowGraph } from "./seed/graph.ts";
import { seedJobQueue } from "./seed/jobs.ts";
import { writeManifest, type SeedManifest } from "./seed/manifest.ts";
import { defaultSeedDir, flag, seedSize } from "./seed/options.ts";
import { Random } from "./seed/random.ts";
import { createStatuses } from "./seed/statuses.ts";

const SEED_URL = "http://localhost:3000";

const args = process.argv.slice(2);
const size = seedSize(args);
const dataDir = resolve(flag(args, "data") ?? defaultSeedDir(join(import.meta.dir, ".."), size));
if (existsSync(join(dataDir, "warren.lmdb"))) {
  console.error(`${dataDir} already holds an instance; give another --data or remove it`);
  process.exit(64);
}

const started = performance.now();
const config = loadConfig({ ...process.env, WARREN_DATA_DIR: dataDir, WARREN_URL: SEED_URL, WARREN_LOG: "off" });
const store = openStore(config.dataDir);
const jobs = await seedJobQueue(store, config);
const deps = { config, store, jobs, remote: federationRemote };
const random = new Random(size.seed);
console.error(`seeding ${dataDir}: ${size.accounts} accounts, ${size.statuses} statuses, seed ${size.seed}`);

const phase = performance.now();
const users = await createAccounts(deps, size.accounts);
const accountsSeconds = (performance.now() - phase) / 1000;
const graph = planFollowGraph(size.accounts, random);
let mark = performance.now();
await createFollows(deps, users.viewers, graph);
const followsSeconds = (performance.now() - mark) / 1000;
mark = performance.now();
const statuses = await createStatuses(deps, users.viewers, graph, size.statuses, random);
const statusesSeconds = (performance.now() - mark) / 1000;

const largest = graph.followerCounts.indexOf(Math.max(...graph.followerCounts));
const lastFollowerId = [...followerIdsOf(store, users.viewers[largest]!.account.id)].at(-1)!;
const busiest = statuses.perAccount.indexOf(Math.max(...statuses.perAccount));
await store.close();

const manifest: SeedManifest = {
  version: 1,
  ...size,
  url: SEED_URL,
  password: SEED_PASSWORD,
  counts: { follows: graph.total, ...statuses.counts, jobs: jobs.ran() },
  seconds: { accounts: accountsSeconds, follows: followsSeconds, statuses: statusesSeconds, total: (performance.now() - started) / 1000 },
  dataBytes: statSync(join(dataDir, "warren.lmdb")).blocks * 512,
  users: users.manifest,
  largest: { index: largest, followers: graph.followerCounts[largest]!, lastFollower: users.manifest.findIndex((u) => u.id === lastFollowerId) },
  busiest: { index: busiest, statuses: statuses.perAccount[busiest]! },
  thread: { rootId: statuses.threadRootId, replies: statuses.threadReplies },
  tag: statuses.topTag,
};
writeManifest(dataDir, manifest);
const { counts, seconds } = manifest;
console.error(`done in ${seconds.total.toFixed(0)} s (accounts ${seconds.accounts.toFixed(0)} s, follows ${seconds.follows.toFixed(0)} s, statuses ${seconds.statuses.toFixed(0)} s): ` +
  `${counts.follows} follows, ${counts.posts} posts, ${counts.replies} replies, ${counts.reblogs} reblogs, ${counts.favourites} favourites, ` +
  `${counts.jobs} subscriber jobs run; ${(manifest.dataBytes / 2 ** 20).toFixed(0)} MiB on disk`);
console.log(dataDir);
