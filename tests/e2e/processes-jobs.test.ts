// Each job runs once across processes (docs/scaling.md): a real `warren serve` with WARREN_PROCESSES=2 and
// job worker threads on (2 per process, the default), both runners claiming from the one queue. Statuses are
// posted through both processes; their effects are counted where a second run would show: deliveries at a
// loopback sink of 20 remote servers (bench/lib/delivery-sink.ts: a POST is recorded each time it arrives),
// mention and favourite notifications, and home timelines. The test also watches the job claims in the
// shared store, to be sure that both processes' runners took part.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchClient, type User } from "../../bench/lib/client.ts";
import { connectionTo, type PinnedConnection } from "../../bench/lib/pinned.ts";
import { startWarren, type Warren } from "../../bench/lib/servers.ts";
import { startSink, type Sink } from "../../bench/scenarios/federation-delivery.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { claimedJobs, deadJobs, dueJobs, LANES } from "../../src/store/jobs.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(120_000);

const SERVERS = 20;
const STATUSES = 30;
const FOLLOWERS = 6;
const MENTIONED = 3;

let dir: string;
let warren: Warren;
let sink: Sink;
let store: Store;
let author: User & { id: string };
let followers: User[];
let mentioned: User[];
/** A connection to each server process, by pid. */
let connections: Map<number, PinnedConnection>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-processes-jobs-"));
  sink = await startSink(SERVERS);
  warren = await startWarren({
    dataDir: dir,
    env: { WARREN_PROCESSES: "2", WARREN_PROCESS_HEADER: "on", WARREN_JOB_WORKERS: "2", WARREN_ALLOW_PRIVATE_ADDRESSES: "true" },
  });
  const client = new BenchClient(warren);
  const user = await client.user("author");
  author = { ...user, id: (await client.api<{ id: string }>("/api/v1/accounts/verify_credentials", { token: user.token })).id };
  followers = await Promise.all(Array.from({ length: FOLLOWERS }, (_, n) => client.user(`follower${n}`)));
  mentioned = await Promise.all(Array.from({ length: MENTIONED }, (_, n) => client.user(`mentioned${n}`)));
  for (const follower of followers) await client.api(`/api/v1/accounts/${author.id}/follow`, { method: "POST", token: follower.token });
  // One remote follower on each server of the sink, written into the store (as the delivery benchmark does).
  const portsFile = join(dir, "sink-ports.txt");
  writeFileSync(portsFile, sink.ports.join("\n"));
  const seeded = await warren.script("bench/scenarios/seed-remote-followers.ts", author.id, "1", portsFile);
  expect(seeded.code).toBe(0);
  store = openStore(dir, { migrate: false });
  connections = new Map();
  while (connections.size < 2) {
    const res = await fetch(`${warren.url}/api/v1/instance`, { headers: { connection: "close" }, keepalive: false });
    await res.arrayBuffer();
    const pid = Number(res.headers.get("x-warren-pid"));
    if (!connections.has(pid)) connections.set(pid, await connectionTo(Number(new URL(warren.url).port), pid));
  }
});

afterAll(async () => {
  for (const connection of connections?.values() ?? []) connection.close();
  await store?.close();
  await warren?.stop();
  await sink?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Which processes claimed jobs (their owner pid), read from the shared store every few milliseconds until stopped. */
function watchClaims() {
  const owners = new Map<number, number>();
  const seen = new Set<string>();
  let running = true;
  const poll = () => {
    if (!running) return;
    store.freshSnapshot();
    for (const job of claimedJobs(store)) {
      if (seen.has(job.id)) continue;
      seen.add(job.id);
      owners.set(job.owner, (owners.get(job.owner) ?? 0) + 1);
    }
    setTimeout(poll, 2);
  };
  poll();
  return {
    stop() {
      running = false;
      return owners;
    },
  };
}

/** Nothing claimed and nothing due: every job the test caused has run (later chain jobs are not due). */
function settled(): boolean {
  store.freshSnapshot();
  const now = Date.now();
  return claimedJobs(store, 1).length === 0 && LANES.every((lane) => dueJobs(store, lane, now, 1).length === 0);
}

test("statuses posted through both processes: every delivery, notification and timeline entry made exactly once", async () => {
  await sink.reset({ name: "exactly-once", delayMs: 0 });
  const claims = watchClaims();
  const pids = [...connections.keys()];
  const mentions = mentioned.map((user) => `@${user.username}`).join(" ");
  const posted: { id: string; uri: string }[] = [];
  for (let n = 0; n < STATUSES; n++) {
    const through = connections.get(pids[n % 2]!)!;
    const answer = await through.request("POST", "/api/v1/statuses", { token: author.token, json: { status: `${mentions} number ${n}`, visibility: "public" } });
    expect(answer.status).toBe(200);
    posted.push(answer.json());
  }
  // Each follower favourites three statuses, through the process the status was not posted through.
  for (const [f, follower] of followers.entries()) {
    for (const k of [0, 1, 2]) {
      const n = (f * 3 + k) % STATUSES;
      const answer = await connections.get(pids[(n + 1) % 2]!)!.request("POST", `/api/v1/statuses/${posted[n]!.id}/favourite`, { token: follower.token });
      expect(answer.status).toBe(200);
    }
  }
  await eventually(async () => (await sink.count()) >= STATUSES * SERVERS, { what: `${STATUSES * SERVERS} deliveries`, timeoutMs: 60_000 });
  await eventually(settled, { what: "the job queue settled", timeoutMs: 30_000 });
  const owners = claims.stop();

  // Both processes' runners claimed jobs.
  expect([...owners.keys()].sort()).toEqual(pids.toSorted());

  // Deliveries: each Create once at each server's shared inbox, signed; nothing else twice.
  const { arrivals } = await sink.stats();
  const creates = new Set(posted.map((status) => `${status.uri}/activity`));
  const once = new Map<string, number>();
  for (const arrival of arrivals) once.set(`${arrival.activityId} ${arrival.port}`, (once.get(`${arrival.activityId} ${arrival.port}`) ?? 0) + 1);
  expect([...once].filter(([, count]) => count > 1)).toEqual([]);
  const createArrivals = arrivals.filter((arrival) => creates.has(arrival.activityId!));
  expect(createArrivals).toHaveLength(STATUSES * SERVERS);
  expect(createArrivals.every((arrival) => arrival.signed && arrival.path === "/inbox")).toBe(true);
  expect(deadJobs(store)).toEqual([]);

  const ids = posted.map((status) => status.id).toSorted();
  const client = new BenchClient(warren);
  for (const user of mentioned) {
    const notifications = await client.api<{ type: string; status: { id: string } }[]>("/api/v1/notifications?types[]=mention&limit=80", { token: user.token });
    expect(notifications.map((notification) => notification.status.id).toSorted()).toEqual(ids);
  }
  const favourites = await client.api<{ account: { acct: string }; status: { id: string } }[]>("/api/v1/notifications?types[]=favourite&limit=80", { token: author.token });
  expect(favourites).toHaveLength(FOLLOWERS * 3);
  expect(new Set(favourites.map((notification) => `${notification.account.acct} ${notification.status.id}`)).size).toBe(FOLLOWERS * 3);
  for (const follower of followers) {
    const home = await client.api<{ id: string }[]>("/api/v1/timelines/home?limit=40", { token: follower.token });
    expect(home.map((status) => status.id).toSorted()).toEqual(ids);
  }
});

test("ids minted in the same millisecond by two processes do not collide: concurrent posts through both all kept", async () => {
  // Each process's threads mint ids from the clock and a per-thread sequence (src/lib/ids.ts); a process tag
  // keeps two processes' apart. 8 posts in flight per process, so that both mint within the same milliseconds.
  const port = Number(new URL(warren.url).port);
  const perProcess = 150;
  const poster = mentioned[0]!; // no followers: nothing to deliver
  const results = await Promise.all(
    [...connections.keys()].flatMap((pid) =>
      Array.from({ length: 8 }, async (_, lane) => {
        const connection = await connectionTo(port, pid);
        const posted: { id: string; text: string }[] = [];
        for (let n = lane; n < perProcess; n += 8) {
          const text = `burst ${pid} ${n}`;
          const answer = await connection.request("POST", "/api/v1/statuses", { token: poster.token, json: { status: text, visibility: "public" } });
          expect(answer.status).toBe(200);
          posted.push({ id: answer.json().id, text });
        }
        connection.close();
        return posted;
      }),
    ),
  );
  const posted = results.flat();
  expect(new Set(posted.map((status) => status.id)).size).toBe(2 * perProcess);
  const client = new BenchClient(warren);
  for (const { id, text } of posted) {
    const status = await client.api<{ content: string }>(`/api/v1/statuses/${id}`, { token: poster.token });
    expect(status.content).toBe(`<p>${text}</p>`);
  }
  await eventually(settled, { what: "the job queue settled", timeoutMs: 60_000 });
  expect(deadJobs(store)).toEqual([]);
});
