// The job queue under load, measured in one run on this machine (figures as ratios; see docs/jobs.md):
//   1. fan-out: statuses put into followers' home feeds through the real job path (queue, worker threads,
//      status.created subscribers), against a loop of raw batched puts of the same number of home rows;
//   2. drain: no-op jobs per second with the server idle, and while a load generator reads a public timeline;
//   3. lag: a posting burst by many accounts with many followers each, and how long after each post's write
//      its followers' homes have it (p50/p99/max).
// Run: bun bench/queue.ts [--only=fanout,drain,lag] [--authors=50] [--followers=1000] [--statuses=400]
//        [--jobs=20000] [--accounts=1000] [--per-account=100] [--rate=1700] [--burst-seconds=10]
import { availableParallelism } from "node:os";
import { buildApp } from "../src/app.ts";
import { ROWS_PER_WRITE } from "../src/domain/timelines/fan-out.ts";
import { newId } from "../src/lib/ids.ts";
import { homeHas, putHomeEntry } from "../src/store/timelines.ts";
import { generateLoad } from "./lib/load.ts";
import { createAccounts, follow, openWorld, post, type World } from "./queue/world.ts";

function option(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  return Number(process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback);
}
const only = (process.argv.find((arg) => arg.startsWith("--only="))?.slice(7) ?? "fanout,drain,lag").split(",");
const workers = process.env.WARREN_JOB_WORKERS ?? "2";
const round = (n: number) => Math.round(n).toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Home rows per second written by raw batched puts: `rows` rows for new status ids, ROWS_PER_WRITE per write. */
async function rawPuts(world: World, viewerIds: string[], statuses: number, authorId: string): Promise<number> {
  const { store } = world.deps;
  const rows: Array<[string, string]> = [];
  for (let s = 0; s < statuses; s++) {
    const statusId = newId(Date.now());
    for (const viewerId of viewerIds) rows.push([viewerId, statusId]);
  }
  const started = performance.now();
  for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) {
    await store.write(() => {
      for (const [viewerId, statusId] of rows.slice(i, i + ROWS_PER_WRITE)) putHomeEntry(store, viewerId, statusId, { authorId, reblogOfId: null });
    });
  }
  return rows.length / ((performance.now() - started) / 1000);
}

async function fanOut(): Promise<void> {
  const authorCount = option("authors", 50);
  const followerCount = option("followers", 1000);
  const statusCount = option("statuses", 400);
  const world = await openWorld({ WARREN_JOB_WORKERS: workers });
  try {
    const { deps } = world;
    const authors = await createAccounts(deps, "author", authorCount);
    const followers = await createAccounts(deps, "follower", followerCount);
    await follow(deps, followers.flatMap((f) => authors.map((a): [string, string] => [f.id, a.id])));
    const followerIds = followers.map((f) => f.id);
    const rawBefore = await rawPuts(world, followerIds, statusCount, authors[0]!.id);

    deps.jobs.pause();
    const posted = [];
    for (let n = 0; posted.length < statusCount; n++) posted.push(...(await post(deps, authors.slice(0, statusCount - posted.length), n)));
    const started = performance.now();
    deps.jobs.resume();
    await deps.jobs.drain();
    const fanOutRate = (statusCount * followerCount) / ((performance.now() - started) / 1000);
    const missing = posted.filter((status) => followerIds.some((id) => !homeHas(deps.store, id, status.id))).length;
    if (missing) throw new Error(`fan-out left ${missing} statuses out of some home`);

    const rawAfter = await rawPuts(world, followerIds, statusCount, authors[0]!.id);
    const raw = Math.max(rawBefore, rawAfter);
    console.log(`fan-out: ${statusCount} statuses × ${followerCount} followers (${authorCount} authors), ${workers} workers`);
    console.log(`  through the job path  ${round(fanOutRate)} rows/s`);
    console.log(`  raw batched puts      ${round(raw)} rows/s (${round(rawBefore)} before, ${round(rawAfter)} after)`);
    console.log(`  ratio                 ${(fanOutRate / raw).toFixed(2)}  (target ≥ 0.5)`);
  } finally {
    await world.close();
  }
}

async function drainRate(world: World, count: number): Promise<number> {
  const { deps } = world;
  deps.jobs.pause();
  for (let i = 0; i < count; i += 5000) {
    await deps.store.write(() => {
      for (let j = i; j < Math.min(i + 5000, count); j++) deps.jobs.enqueue("noop", {}, { lane: "realtime" });
    });
  }
  const started = performance.now();
  deps.jobs.resume();
  await deps.jobs.drain();
  return count / ((performance.now() - started) / 1000);
}

async function drain(): Promise<void> {
  const count = option("jobs", 20_000);
  const world = await openWorld({ WARREN_JOB_WORKERS: workers });
  const app = buildApp(world.deps);
  try {
    await app.modules;
    app.listen({ port: 0, hostname: "127.0.0.1" });
    const url = `http://127.0.0.1:${app.server!.port}`;
    const idle = await drainRate(world, count);
    // The generator runs on its own threads for a while longer than the drain should take.
    const threads = Math.max(1, Math.floor(availableParallelism() / 2));
    const durationMs = Math.min(60_000, 2000 + (4 * count * 1000) / idle);
    const load = generateLoad(url, { method: "GET", path: "/api/v1/timelines/public?limit=20" }, { connections: 50, threads, durationMs });
    await Bun.sleep(500);
    const loaded = await drainRate(world, count);
    const reads = await load;
    console.log(`drain: ${round(count)} no-op jobs (realtime lane), ${workers} workers`);
    console.log(`  idle                  ${round(idle)} jobs/s`);
    console.log(`  under read load       ${round(loaded)} jobs/s (${(loaded / idle).toFixed(2)} of idle), while serving ${round(reads.rps)} reads/s, p99 ${reads.p99.toFixed(1)} ms`);
  } finally {
    await app.stop();
    await world.close();
  }
}

async function lag(): Promise<void> {
  const accountCount = option("accounts", 1000);
  const perAccount = option("per-account", 100);
  const rate = option("rate", 1700);
  const burstMs = option("burst-seconds", 10) * 1000;
  const world = await openWorld({ WARREN_JOB_WORKERS: workers });
  try {
    const { deps } = world;
    const accounts = await createAccounts(deps, "member", accountCount);
    // Account a is followed by the perAccount accounts after it (mod accountCount): every account has the
    // same audience size, and every follower's home takes perAccount authors.
    const pairs: Array<[string, string]> = [];
    for (let a = 0; a < accountCount; a++) for (let k = 1; k <= perAccount; k++) pairs.push([accounts[(a + k) % accountCount]!.id, accounts[a]!.id]);
    await follow(deps, pairs);

    // Every 10 ms, the posts due by then, in one write (as concurrent API requests share commits). A post has
    // reached its followers when the fan-out's stream signals, raised after each commit, have named all
    // perAccount homes. (Polling the homes from this thread would take the main thread from the runner.)
    const pending = new Map<string, { at: number; homesLeft: number }>();
    const lags: number[] = [];
    let posted = 0;
    let next = 0;
    const started = performance.now();
    const off = deps.jobs.onEvent((event) => {
      const statusId = event.statusId as string;
      const waiting = pending.get(statusId);
      if (event.kind !== "update" || event.broadcast || !waiting) return;
      waiting.homesLeft -= (event.homes as string[]).length;
      if (waiting.homesLeft > 0) return;
      lags.push(performance.now() - waiting.at);
      pending.delete(statusId);
    });
    while (performance.now() - started < burstMs) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate) - posted;
      if (due > 0) {
        const authors = Array.from({ length: due }, () => accounts[next++ % accountCount]!);
        const statuses = await post(deps, authors, posted);
        const at = performance.now();
        for (const status of statuses) pending.set(status.id, { at, homesLeft: perAccount });
        posted += due;
      }
      await Bun.sleep(10);
    }
    const burstEnd = performance.now();
    const peak = deps.jobs.stats().pending;
    while (pending.size > 0 && performance.now() - burstEnd < 300_000) await Bun.sleep(50);
    off();
    lags.sort((a, b) => a - b);
    const pct = (p: number) => lags[Math.min(lags.length - 1, Math.floor(lags.length * p))] ?? NaN;
    console.log(`lag: ${round(accountCount)} accounts × ${perAccount} followers, ${round(posted)} posts in ${seconds(burstMs)} (${round(posted / (burstMs / 1000))}/s), ${workers} workers`);
    console.log(`  jobs waiting at the end of the burst  ${round(peak)}`);
    console.log(`  post → every follower's home          p50 ${seconds(pct(0.5))}, p99 ${seconds(pct(0.99))}, max ${seconds(lags.at(-1) ?? NaN)}`);
    console.log(`  homes still missing a post            ${pending.size}`);
  } finally {
    await world.close();
  }
}

if (only.includes("fanout")) await fanOut();
if (only.includes("drain")) await drain();
if (only.includes("lag")) await lag();
process.exit(0);
