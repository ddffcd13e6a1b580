// `bun bench/run.ts --processes=1,2`: CPU-bound reads against Warren run as 1 and as N server processes
// (WARREN_PROCESSES), in one run: requests/s, latency, and requests per CPU-second of the whole server (the
// supervisor and its processes, every thread: bench/lib/cpu.ts). Then, with 2 processes or more, the delay
// of a status from its POST to its `update` event on a stream of the process that took the POST and on a
// stream of another process (the supervisor relays signals; docs/scaling.md).
//
// With --inbound=N, also N signed Creates to the shared inbox from a loopback sender, as 1 and as N processes
// (bench/scenarios/inbound-creates.ts): inbound activities/s and per server CPU-second.
//
//   bun bench/run.ts --processes=1,2 [--duration=5] [--warmup=1] [--rounds=2] [--connections=50] [--threads=1]
//                    [--only=verify_credentials,home_built_each_time] [--posts=200] [--rate-limits=on|off]
//                    [--inbound=2000] [--senders=16]
import { availableParallelism } from "node:os";
import { BenchClient } from "./lib/client.ts";
import { treeCpuSeconds } from "./lib/cpu.ts";
import { generateLoad, type RequestSpec } from "./lib/load.ts";
import { connectionTo } from "./lib/pinned.ts";
import { startWarren } from "./lib/servers.ts";
import { percentile } from "./lib/stats.ts";
import { prepareHome } from "./scenarios/home-timeline.ts";
import type { Scenario } from "./scenarios/types.ts";
import { verifyCredentials } from "./scenarios/verify-credentials.ts";
import { measureInbound, type InboundRow } from "./scenarios/inbound-creates.ts";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const counts = option("processes", "1,2").split(",").map(Number);
const durationMs = Number(option("duration", "5")) * 1000;
const warmupMs = Number(option("warmup", "1")) * 1000;
const rounds = Math.max(1, Number(option("rounds", "2")));
const connections = Number(option("connections", "50"));
const threads = Number(option("threads", "1"));
const posts = Number(option("posts", "200"));
const only = option("only", "").split(",").filter(Boolean);
const rateLimits = option("rate-limits", "on");
const inbound = Number(option("inbound", "0"));
const senders = Number(option("senders", "16"));

/** The newest home page, with a query parameter that differs per request: built every time, never cached. */
const homeBuiltEachTime: Scenario = {
  name: "home_built_each_time",
  description: "GET /api/v1/timelines/home?limit=20&nocache=<varies>, 3 followed authors: the page built every time",
  async prepare(client) {
    const reader = await prepareHome(client);
    return { method: "GET", path: "/api/v1/timelines/home?limit=20&nocache={{n}}", headers: { authorization: `Bearer ${reader.token}` } };
  },
};

const scenarios = [verifyCredentials, homeBuiltEachTime].filter((s) => !only.length || only.includes(s.name));

interface Row {
  scenario: string;
  processes: number;
  rps: number;
  p50: number;
  p99: number;
  cpuSeconds: number;
  perCpuSecond: number;
}

async function measure(scenario: Scenario, processes: number): Promise<Row> {
  // Rate limits on (raised so nothing is refused), as an instance runs: with several processes each request's
  // count is a round trip to the supervisor, a cost that belongs in the comparison.
  const warren = await startWarren({ env: { WARREN_PROCESSES: String(processes), WARREN_RATE_LIMITS: rateLimits, WARREN_RATE_LIMIT_FACTOR: "1000000" } });
  try {
    const spec: RequestSpec = await scenario.prepare(new BenchClient(warren));
    const load = { connections, threads, durationMs };
    if (warmupMs > 0) await generateLoad(warren.url, spec, { ...load, durationMs: warmupMs });
    let best: Row | null = null;
    for (let round = 0; round < rounds; round++) {
      const before = treeCpuSeconds(warren.pid);
      const m = await generateLoad(warren.url, spec, load);
      const cpuSeconds = treeCpuSeconds(warren.pid) - before;
      const row = { scenario: scenario.name, processes, rps: m.rps, p50: m.p50, p99: m.p99, cpuSeconds, perCpuSecond: m.requests / cpuSeconds };
      if (!best || row.rps > best.rps) best = row;
    }
    return best!;
  } finally {
    await warren.stop();
  }
}

/** Reads an event stream, noting when each status's `update` arrived. */
async function listen(url: string, token: string) {
  const res = await fetch(`${url}/api/v1/streaming/public`, { headers: { authorization: `Bearer ${token}` } });
  const pid = Number(res.headers.get("x-warren-pid"));
  const arrived = new Map<string, number>();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 1);
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ") && event === "update") arrived.set(JSON.parse(line.slice(6)).id, performance.now());
      }
    }
  })();
  return { pid, arrived, close: () => void reader.cancel().catch(() => {}) };
}

/** POST → `update` on a stream of the same process and of another one: milliseconds, per status. */
async function streamingDelay(processes: number) {
  const warren = await startWarren({ env: { WARREN_PROCESSES: String(processes), WARREN_PROCESS_HEADER: "on" } });
  try {
    const client = new BenchClient(warren);
    const [listener, poster] = [await client.user("listener"), await client.user("poster")];
    const streams = new Map<number, Awaited<ReturnType<typeof listen>>>();
    const extra: { close(): void }[] = [];
    while (streams.size < 2) {
      const stream = await listen(warren.url, listener.token);
      if (streams.has(stream.pid)) extra.push(stream);
      else streams.set(stream.pid, stream);
    }
    const [here, there] = [...streams.values()];
    const connection = await connectionTo(Number(new URL(warren.url).port), here!.pid);
    const sent = new Map<string, number>();
    for (let n = 0; n < posts; n++) {
      const start = performance.now();
      const answer = await connection.request("POST", "/api/v1/statuses", { token: poster.token, json: { status: `delay ${n}`, visibility: "public" } });
      sent.set(answer.json().id, start);
      await Bun.sleep(10);
    }
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && [here!, there!].some((s) => s.arrived.size < posts)) await Bun.sleep(20);
    const delays = (stream: typeof here) => Float64Array.from([...sent].map(([id, at]) => (stream!.arrived.get(id) ?? Infinity) - at)).sort();
    connection.close();
    for (const stream of [...streams.values(), ...extra]) stream.close();
    return { same: delays(here), other: delays(there) };
  } finally {
    await warren.stop();
  }
}

const rows: Row[] = [];
for (const scenario of scenarios) {
  for (const processes of counts) {
    console.log(`${scenario.name} with ${processes} process(es)…`);
    rows.push(await measure(scenario, processes));
  }
}
const most = Math.max(...counts);
const delay = most >= 2 && posts > 0 ? await streamingDelay(most) : null;
const inboundRows: InboundRow[] = [];
for (const processes of inbound > 0 ? counts : []) {
  console.log(`${inbound} inbound Creates with ${processes} process(es)…`);
  inboundRows.push(await measureInbound(processes, inbound, senders));
}

console.log(`\nWarren with several processes, ${new Date().toISOString()}: ${availableParallelism()} CPUs, ${connections} connections, ` +
  `${threads} generator thread(s), best of ${rounds} × ${durationMs / 1000}s, Bun ${Bun.version}\n`);
console.log("scenario                 processes   req/s     p50 ms   p99 ms   server CPU-s   req per CPU-s");
for (const row of rows) {
  console.log(`${row.scenario.padEnd(24)} ${String(row.processes).padStart(9)} ${row.rps.toFixed(0).padStart(7)} ${row.p50.toFixed(2).padStart(8)} ` +
    `${row.p99.toFixed(2).padStart(8)} ${row.cpuSeconds.toFixed(2).padStart(14)} ${row.perCpuSecond.toFixed(0).padStart(15)}`);
}
for (const scenario of scenarios) {
  const one = rows.find((r) => r.scenario === scenario.name && r.processes === 1);
  for (const row of rows.filter((r) => r.scenario === scenario.name && r.processes > 1)) {
    if (one) console.log(`${scenario.name}: ${row.processes} processes / 1 = ${(row.rps / one.rps).toFixed(2)}× req/s, ${(row.perCpuSecond / one.perCpuSecond).toFixed(2)}× req per CPU-s`);
  }
}
if (delay) {
  const ms = (sorted: Float64Array, p: number) => percentile(sorted, p).toFixed(1);
  console.log(`\nstreaming, POST → update event (${posts} statuses, ${most} processes): ` +
    `same process p50 ${ms(delay.same, 50)} ms, p99 ${ms(delay.same, 99)} ms; other process p50 ${ms(delay.other, 50)} ms, p99 ${ms(delay.other, 99)} ms`);
}
if (inboundRows.length) {
  console.log(`\ninbound: ${inbound} signed Creates to /inbox, ${senders} in flight, 10 remote actors each followed by 3 local users`);
  console.log("processes   accepted/s   processed/s   server CPU-s   activities per CPU-s   stored   refused   dead jobs");
  for (const row of inboundRows) {
    console.log(`${String(row.processes).padStart(9)} ${row.acceptedPerSecond.toFixed(0).padStart(12)} ${row.processedPerSecond.toFixed(0).padStart(13)} ` +
      `${row.cpuSeconds.toFixed(2).padStart(14)} ${row.perCpuSecond.toFixed(0).padStart(22)} ${String(row.stored).padStart(8)} ${String(row.refused).padStart(9)} ${String(row.dead).padStart(11)}`);
    console.log(`           Warren's requests to the sender meanwhile: ${JSON.stringify(row.fetches)}`);
    if (row.retrying.length) console.log(`           ${row.retrying.length} jobs to be retried, e.g. ${[...new Set(row.retrying)].slice(0, 3).join("; ")}`);
  }
}
