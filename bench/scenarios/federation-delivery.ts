// Federation delivery at scale (issue 14): one public status of a local account with 5,000 remote followers
// spread over 500 servers, from the POST to the last delivery. Run by `npm run bench` after the timed checks
// (`--only=federation_delivery`; `--rounds` applies).
//
// Warren is a child process (bench/lib/servers.ts) with WARREN_ALLOW_PRIVATE_ADDRESSES=true and its default
// WARREN_JOB_WORKERS. The 500 servers are one sink process (bench/lib/delivery-sink.ts) listening on 500 ports
// of 127.0.0.1: distinct origins, as 500 real servers are, with no DNS or host-file set-up (names resolving to
// 127.0.0.1 would need either; one port with 500 paths would put every shared inbox on one host, which Fedify's
// circuit breaker and signature-spec memory key by). The followers (10 per server, each with its own inbox and
// the server's shared inbox `http://127.0.0.1:<port>/inbox`) are written into Warren's store by
// seed-remote-followers.ts. The author is a user made through the CLI and signed in; it posts through
// POST /api/v1/statuses.
//
// Measured per round, in phases where the sink answers each POST at once (`instant`: the sender's cost per
// delivery decides the rate), where it holds each for HOLD_MS (`held`: distant servers; the sender's
// concurrency limit decides the rate, and shows as requests in flight at the sink), and where 10 of the 500
// servers hold theirs SLOW_MS and the rest answer at once (`slow`: what a few slow servers cost the others):
//   - enqueue: from sending the POST until the `federation.message` delivery jobs were written (their
//     `createdAt`), found by polling Warren's job keyspaces from this process (a read-only LMDB handle on the
//     same data directory): how many `outbox` messages (one per inbox Fedify delivers to), `fanout` messages
//     (Fedify's, which turns one sendActivity into the outbox messages) and other network-lane jobs there were;
//   - delivery rate: deliveries ÷ (the sink's last arrival − the moment the delivery jobs were enqueued), with
//     every server getting exactly one POST, at its shared inbox, carrying an HTTP signature (one of them
//     verified after the timed part with Fedify's verifyRequest against the author's key);
//   - peak: the most POSTs the sink held at once;
//   - bare: the sink's rate for as many unsigned POSTs of the same body, one per server, sent from this process
//     by a bare loop (fetch, a new connection per request as Warren's deliveries use) with the same
//     concurrency as the network lane's limit, measured from the loop's start to the last arrival; the ratio
//     is Warren's rate ÷ that.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyRequest } from "@fedify/fedify/sig";
import { getDocumentLoader } from "@fedify/vocab-runtime";
import { loadConfig } from "../../src/config.ts";
import { LANE_POLICY } from "../../src/jobs/lanes.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { END, openStore, type Store } from "../../src/store/db.ts";
import { BenchClient } from "../lib/client.ts";
import { captureOutput, stop } from "../lib/process.ts";
import { startWarren, type Warren } from "../lib/servers.ts";
import type { JobRecord } from "../../src/model/jobs.ts";

export const SERVERS = 500;
export const FOLLOWERS_PER_SERVER = 10;
/** How long the sink holds each POST in the `held` phase. */
export const HOLD_MS = 100;
/** The `slow` phase: every SLOW_EVERY-th server (10 of 500) holds its POST SLOW_MS, the others answer at once. */
export const SLOW_EVERY = 50;
export const SLOW_MS = 1_000;

interface Phase {
  name: string;
  delayMs: number;
  slowEvery?: number;
  slowMs?: number;
}

const PHASES: Phase[] = [
  { name: "instant", delayMs: 0 },
  { name: "held", delayMs: HOLD_MS },
  { name: "slow", delayMs: 0, slowEvery: SLOW_EVERY, slowMs: SLOW_MS },
];
const DELIVERY_TIMEOUT_MS = 120_000;

export interface DeliveryCheckOptions {
  rounds: number;
}

export interface DeliveryReport {
  name: string;
  /** What `npm run bench` prints after its table. */
  lines: string[];
  /** Missing, duplicated, unsigned or over-concurrent deliveries: listed under "problems", the run exits 1. */
  problems: string[];
  /** Kept in .bench/<timestamp>.json. */
  figures: Record<string, unknown>;
}

export interface DeliveryCheck {
  name: string;
  description: string;
  run(options: DeliveryCheckOptions): Promise<DeliveryReport>;
}

interface Arrival {
  port: number;
  path: string;
  at: number;
  signed: boolean;
  activityId: string | null;
}

export interface SinkStats {
  arrivals: Arrival[];
  peak: number;
  inFlight: number;
  sample: { url: string; headers: [string, string][]; body: string } | null;
  errors: string[];
}

const now = () => performance.timeOrigin + performance.now();
const root = join(import.meta.dir, "../..");

export interface Sink {
  ports: number[];
  reset(phase: Phase): Promise<void>;
  count(): Promise<number>;
  stats(): Promise<SinkStats>;
  stop(): Promise<void>;
}

export async function startSink(servers: number): Promise<Sink> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../lib/delivery-sink.ts")], {
    cwd: root,
    env: { ...process.env, SINK_SERVERS: String(servers) },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = captureOutput(proc);
  const deadline = Date.now() + 30_000;
  let started: { control: number; ports: number[] } | null = null;
  while (!started) {
    const line = output().split("\n").find((l) => l.startsWith("{"));
    if (line) started = JSON.parse(line);
    else if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`delivery sink did not start\n${output()}`);
    else await Bun.sleep(20);
  }
  const control = `http://127.0.0.1:${started.control}`;
  return {
    ports: started.ports,
    async reset(phase) {
      await (await fetch(`${control}/reset`, { method: "POST", body: JSON.stringify(phase) })).arrayBuffer();
    },
    async count() {
      return ((await (await fetch(`${control}/count`)).json()) as { count: number }).count;
    },
    async stats() {
      return (await (await fetch(`${control}/stats`)).json()) as SinkStats;
    },
    stop: () => stop(proc),
  };
}

/** A job seen on the network lane (waiting or claimed) while a round ran. */
interface SeenJob {
  type: string;
  /** Fedify's message type for federation.message jobs: outbox (one delivery), fanout, inbox. */
  message: string | null;
  createdAt: number;
}

/**
 * Polls Warren's job keyspaces (waiting jobs of the network lane, claimed jobs) from this process, reading each
 * job once. A delivery job stays visible from its commit until its outcome is recorded (after its POST), so a
 * poll every millisecond or two sees every one.
 */
function watchJobs(store: Store): { stop(): Map<string, SeenJob> } {
  const seen = new Map<string, SeenJob>();
  let running = true;
  const record = (id: string, job: JobRecord | undefined) => {
    if (!job || seen.has(id)) return;
    let message: string | null = null;
    const payload = job.payload as { message?: string } | null;
    if (job.type === "federation.message" && typeof payload?.message === "string") {
      message = /^\{"type":"(\w+)"/.exec(payload.message)?.[1] ?? (JSON.parse(payload.message) as { type?: string }).type ?? null;
    }
    seen.set(id, { type: job.type, message, createdAt: job.createdAt });
  };
  const poll = () => {
    if (!running) return;
    store.freshSnapshot();
    for (const key of store.db.jobs.getKeys({ start: ["network", 0], end: ["network", END] })) {
      const id = (key as [string, number, string])[2];
      if (!seen.has(id)) record(id, store.db.jobs.get(key) as JobRecord | undefined);
    }
    for (const key of store.db.jobsClaimed.getKeys({})) {
      const id = key as string;
      if (!seen.has(id)) {
        const job = store.db.jobsClaimed.get(id) as JobRecord | undefined;
        if (job?.lane === "network") record(id, job);
      }
    }
    setTimeout(poll, 1);
  };
  poll();
  return {
    stop() {
      running = false;
      return seen;
    },
  };
}

async function waitForArrivals(sink: Sink, count: number): Promise<void> {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while ((await sink.count()) < count) {
    if (Date.now() > deadline) throw new Error(`the sink got ${await sink.count()} of ${count} deliveries within ${DELIVERY_TIMEOUT_MS / 1000} s`);
    await Bun.sleep(20);
  }
}

interface WarrenRound {
  phase: string;
  round: number;
  postMs: number;
  enqueueMs: number;
  /** From the POST until Fedify's fan-out message was written (the status.created subscriber's sendActivity). */
  fanoutMs: number;
  /** Spread of the delivery jobs' createdAt: 0 when they were written in one transaction. */
  enqueueSpreadMs: number;
  outboxJobs: number;
  fanoutJobs: number;
  otherNetworkJobs: string[];
  deliveries: number;
  firstDeliveryMs: number;
  deliveryMs: number;
  rate: number;
  peak: number;
  problems: string[];
  sample: SinkStats["sample"];
}

async function warrenRound(warren: Warren, store: Store, sink: Sink, token: string, { name: phase, ...holds }: Phase, round: number, concurrency: number): Promise<WarrenRound> {
  await sink.reset({ name: phase, ...holds });
  const watcher = watchJobs(store);
  const started = now();
  const res = await fetch(`${warren.url}/api/v1/statuses`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: `Delivery to ${SERVERS} servers, ${phase} round ${round}`, visibility: "public" }),
  });
  const posted = now();
  const status = (await res.json()) as { uri?: string };
  if (res.status !== 200) throw new Error(`POST /api/v1/statuses answered ${res.status}: ${JSON.stringify(status)}`);
  await waitForArrivals(sink, SERVERS);
  // Anything beyond one per server (a duplicate, a personal inbox) would come right behind.
  await Bun.sleep(300);
  const seen = [...watcher.stop().values()];
  const stats = await sink.stats();
  const outbox = seen.filter((job) => job.message === "outbox");
  const fanout = seen.filter((job) => job.message === "fanout");
  const other = seen.filter((job) => job.message !== "outbox" && job.message !== "fanout").map((job) => job.message ? `${job.type}:${job.message}` : job.type);
  const enqueuedAt = Math.max(...outbox.map((job) => job.createdAt));
  const arrivals = stats.arrivals.toSorted((a, b) => a.at - b.at);
  const last = arrivals[Math.min(SERVERS, arrivals.length) - 1]!.at;
  const problems: string[] = [];
  const perPort = new Map<number, number>();
  for (const a of arrivals) perPort.set(a.port, (perPort.get(a.port) ?? 0) + 1);
  const repeated = [...perPort.values()].filter((n) => n > 1).length;
  if (arrivals.length !== SERVERS || perPort.size !== SERVERS || repeated) {
    problems.push(`${arrivals.length} deliveries to ${perPort.size} of ${SERVERS} servers (${repeated} servers got more than one)`);
  }
  const personal = arrivals.filter((a) => a.path !== "/inbox").length;
  if (personal) problems.push(`${personal} deliveries to personal inboxes instead of the shared inbox`);
  const unsigned = arrivals.filter((a) => !a.signed).length;
  if (unsigned) problems.push(`${unsigned} deliveries without an HTTP signature`);
  const others = arrivals.filter((a) => a.activityId !== `${status.uri}/activity`).length;
  if (others) problems.push(`${others} deliveries of another activity than ${status.uri}/activity`);
  if (outbox.length !== SERVERS) problems.push(`${outbox.length} outbox delivery jobs seen, ${SERVERS} expected (one per shared inbox)`);
  if (stats.peak > concurrency) problems.push(`the sink held ${stats.peak} deliveries at once, more than the network lane's ${concurrency}`);
  if (stats.errors.length) problems.push(`sink errors: ${stats.errors.slice(0, 3).join("; ")}`);
  return {
    phase,
    round,
    postMs: posted - started,
    enqueueMs: enqueuedAt - started,
    fanoutMs: fanout.length ? Math.max(...fanout.map((job) => job.createdAt)) - started : NaN,
    enqueueSpreadMs: outbox.length ? enqueuedAt - Math.min(...outbox.map((job) => job.createdAt)) : NaN,
    outboxJobs: outbox.length,
    fanoutJobs: fanout.length,
    otherNetworkJobs: other,
    deliveries: arrivals.length,
    firstDeliveryMs: arrivals[0]!.at - enqueuedAt,
    deliveryMs: last - enqueuedAt,
    rate: (SERVERS / (last - enqueuedAt)) * 1000,
    peak: stats.peak,
    problems: problems.map((p) => `${phase} round ${round}: ${p}`),
    sample: stats.sample,
  };
}

interface BareRound {
  phase: string;
  round: number;
  deliveryMs: number;
  rate: number;
  peak: number;
}

/** The same number of POSTs of the same body, unsigned, one per server, `concurrency` at a time. */
async function bareRound(sink: Sink, body: string, { name: phase, ...holds }: Phase, round: number, concurrency: number): Promise<BareRound> {
  await sink.reset({ name: phase, ...holds });
  const queue = [...sink.ports];
  const started = now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let port = queue.shift(); port !== undefined; port = queue.shift()) {
        const res = await fetch(`http://127.0.0.1:${port}/inbox`, {
          method: "POST",
          headers: { "content-type": "application/activity+json" },
          body,
          keepalive: false,
        });
        await res.arrayBuffer();
      }
    }),
  );
  await waitForArrivals(sink, SERVERS);
  const stats = await sink.stats();
  const last = Math.max(...stats.arrivals.map((a) => a.at));
  return { phase, round, deliveryMs: last - started, rate: (SERVERS / (last - started)) * 1000, peak: stats.peak };
}

/** Verifies one delivery's HTTP signature against the author's key, fetched from Warren. */
async function verifySample(sample: NonNullable<SinkStats["sample"]>): Promise<string | null> {
  const loader = getDocumentLoader({ allowPrivateAddress: true });
  const request = new Request(sample.url, { method: "POST", headers: sample.headers, body: sample.body });
  const key = await verifyRequest(request, { documentLoader: loader, contextLoader: loader }).catch(() => null);
  return key?.id?.href ?? null;
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const federationDelivery: DeliveryCheck = {
  name: "federation_delivery",
  description: `one status to ${fmt(SERVERS * FOLLOWERS_PER_SERVER)} remote followers on ${SERVERS} servers (loopback sink)`,
  async run({ rounds }) {
    const dataDir = mkdtempSync(join(tmpdir(), "warren-bench-delivery-"));
    const config = loadConfig({ ...process.env, WARREN_DATA_DIR: dataDir });
    const concurrency = LANE_POLICY.network.batch * LANE_POLICY.network.slots(config.jobWorkers);
    let sink: Sink | null = null;
    let warren: Warren | null = null;
    let store: Store | null = null;
    try {
      console.log(`federation_delivery: ${SERVERS} sink servers, ${fmt(SERVERS * FOLLOWERS_PER_SERVER)} remote followers…`);
      sink = await startSink(SERVERS);
      warren = await startWarren({ dataDir, env: { WARREN_ALLOW_PRIVATE_ADDRESSES: "true" } });
      const client = new BenchClient(warren);
      const author = await client.user("author");
      const me = await client.api<{ id: string }>("/api/v1/accounts/verify_credentials", { token: author.token });
      const portsFile = join(dataDir, "sink-ports.txt");
      writeFileSync(portsFile, sink.ports.join("\n"));
      const seeded = await warren.script("bench/scenarios/seed-remote-followers.ts", normaliseId(me.id)!, String(FOLLOWERS_PER_SERVER), portsFile);
      if (seeded.code !== 0) throw new Error(`seed-remote-followers failed (${seeded.code}): ${seeded.stdout}${seeded.stderr}`);
      store = openStore(dataDir, { migrate: false });

      const warrenRounds: WarrenRound[] = [];
      const bareRounds: BareRound[] = [];
      let sampleKey: string | null = null;
      let spec = "";
      for (const phase of PHASES) {
        for (let round = 1; round <= rounds; round++) {
          const w = await warrenRound(warren, store, sink, author.token, phase, round, concurrency);
          warrenRounds.push(w);
          if (!w.sample) throw new Error("no signed delivery to take a body from");
          sampleKey ??= await verifySample(w.sample);
          spec ||= w.sample.headers.some(([name]) => name.toLowerCase() === "signature-input") ? "RFC 9421" : "draft-cavage";
          bareRounds.push(await bareRound(sink, w.sample.body, phase, round, concurrency));
        }
      }

      const problems = warrenRounds.flatMap((w) => w.problems);
      if (!sampleKey) problems.push("a delivery's HTTP signature did not verify against the author's key");
      const lines = [
        `federation_delivery (${SERVERS} servers × ${FOLLOWERS_PER_SERVER} followers; network lane: at most ${concurrency} concurrent deliveries = ` +
          `${LANE_POLICY.network.batch} in flight per worker × ${config.jobWorkers} worker(s); sink holds each POST 0 ms (instant), ${HOLD_MS} ms (held), ` +
          `or 0 ms but ${fmt(SLOW_MS)} ms at ${SERVERS / SLOW_EVERY} servers (slow)):`,
      ];
      for (const w of warrenRounds) {
        const bare = bareRounds.find((b) => b.phase === w.phase && b.round === w.round)!;
        lines.push(
          `  ${w.phase} round ${w.round}: POST answered ${fmt(w.postMs, 1)} ms; ${w.outboxJobs} delivery jobs + ${w.fanoutJobs} fan-out` +
            (w.otherNetworkJobs.length ? ` + ${w.otherNetworkJobs.join(", ")}` : "") +
            ` enqueued ${fmt(w.enqueueMs)} ms after the POST (fan-out message at ${fmt(w.fanoutMs)} ms; deliveries written in ${fmt(w.enqueueSpreadMs)} ms); ` +
            `${w.deliveries} deliveries, first after ${fmt(w.firstDeliveryMs)} ms, all in ${fmt(w.deliveryMs)} ms: ${fmt(w.rate)}/s, ` +
            `peak ${w.peak} at once | bare loop ${fmt(bare.rate)}/s (${fmt(bare.deliveryMs)} ms, peak ${bare.peak}) | ratio ${(w.rate / bare.rate).toFixed(2)}`,
        );
      }
      lines.push(`  HTTP signature (${spec}) of a delivery verified against ${sampleKey ?? "nothing (FAILED)"}`);
      return {
        name: "federation_delivery",
        lines,
        problems,
        figures: {
          servers: SERVERS,
          followersPerServer: FOLLOWERS_PER_SERVER,
          concurrency,
          holdMs: HOLD_MS,
          slow: { every: SLOW_EVERY, ms: SLOW_MS },
          signatureKey: sampleKey,
          signatureSpec: spec,
          rounds: warrenRounds.map(({ sample: _sample, ...w }) => ({ ...w, bare: bareRounds.find((b) => b.phase === w.phase && b.round === w.round) })),
        },
      };
    } finally {
      await store?.close();
      await warren?.stop();
      await sink?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export const DELIVERY_CHECKS: DeliveryCheck[] = [federationDelivery];
