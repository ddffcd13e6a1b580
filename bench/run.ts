// `npm run bench`: each scenario against Warren and against a bare Bun.serve handler returning the same bytes,
// in the same run, on loopback. Prints requests/s, p50/p99 latency and Warren's throughput ratio to the bare
// handler; keeps the numbers in .bench/<timestamp>.json. See docs/benchmarks.md.
//
//   bun bench/run.ts [--duration=5] [--warmup=1] [--rounds=2] [--connections=50] [--threads=N] [--only=name,...]
//                    [--processes=1,2]   (1 against 2 server processes: bench/processes.ts)
//                    [--baseline=DIR]   (each scenario run again, right after, on the Warren of another checkout)
//                    [--profile]   (one round; Warren runs under bun --cpu-prof-md, profiles in .bench/profiles/)
//                    [--data=DIR | --accounts=N --statuses=N --seed=N]   (the seeded instance of the scale_* scenarios;
//                    default: a small one, seeded under .bench/seeds/ on first use; see bench/seed.ts)
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { BenchClient } from "./lib/client.ts";
import { generateLoad, type LoadOptions, type RequestSpec } from "./lib/load.ts";
import { problems, table, type Row } from "./lib/report.ts";
import type { Measurement } from "./lib/stats.ts";
import { startBare, startWarren, type ChildServer, type Sample, type Warren } from "./lib/servers.ts";
import { memoryOf, type Memory } from "./lib/memory.ts";
import { treeCpuSeconds } from "./lib/cpu.ts";
import { seededCopy, type SeededCopy } from "./lib/seeded.ts";
import { SCENARIOS, TIMED_CHECKS } from "./scenarios/index.ts";
import { SCALE_SCENARIOS } from "./scenarios/scale.ts";
import { SCALE_CHECKS } from "./scenarios/scale-checks.ts";
import { MEDIA_CHECKS, type MediaReport } from "./scenarios/media-upload.ts";
import { SEARCH_CHECK_NAMES, searchFigures, searchStatusesHttp } from "./scenarios/search.ts";
import { DELIVERY_CHECKS, type DeliveryReport } from "./scenarios/federation-delivery.ts";
import type { Scenario } from "./scenarios/types.ts";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

// --processes=1,2: Warren as 1 and as 2 server processes instead (bench/processes.ts).
if (process.argv.some((arg) => arg.startsWith("--processes="))) {
  await import("./processes.ts");
  process.exit(0);
}

const durationMs = Number(option("duration", "5")) * 1000;
const warmupMs = Number(option("warmup", "1")) * 1000;
// Warren and the bare handler are measured alternately, `rounds` times each; the best round of each counts,
// which keeps a burst of unrelated load on the machine from deciding the ratio.
const profile = process.argv.includes("--profile");
const rounds = profile ? 1 : Math.max(1, Number(option("rounds", "2")));
const connections = Number(option("connections", "50"));
// The servers need the other cores: by default the generator takes half of them.
const threads = Number(option("threads", String(Math.max(1, Math.floor(availableParallelism() / 2)))));
const only = option("only", "").split(",").filter(Boolean);
const outDir = join(import.meta.dir, "../.bench");
// --baseline=DIR: another checkout (e.g. a detached worktree of main); its Warren runs each scenario right after
// this tree's, on its own copy of the seeded instance, so old and new alternate within one run.
const baseline = option("baseline", "") || null;
const profileDir = join(outDir, "profiles");

async function sample(url: string, spec: RequestSpec): Promise<Sample> {
  const res = await fetch(url + spec.path.replaceAll("{{n}}", "00000000"), { method: spec.method, headers: spec.headers, body: spec.body?.replaceAll("{{n}}", "sample") });
  const body = await res.bytes();
  if (res.status !== (spec.expectStatus ?? 200)) {
    throw new Error(`${spec.method} ${spec.path} answered ${res.status}: ${new TextDecoder().decode(body)}`);
  }
  return { status: res.status, contentType: res.headers.get("content-type") ?? "application/octet-stream", body };
}

/** One run after its warm-up; with `pid`, also the CPU seconds that process tree used during the run. */
async function measure(server: ChildServer, spec: RequestSpec, pid?: number): Promise<Measurement & { cpuSeconds?: number }> {
  const options: LoadOptions = { connections, threads, durationMs };
  if (warmupMs > 0) await generateLoad(server.url, spec, { ...options, durationMs: warmupMs });
  const before = pid ? treeCpuSeconds(pid) : 0;
  const measured = await generateLoad(server.url, spec, options);
  return pid ? { ...measured, cpuSeconds: treeCpuSeconds(pid) - before } : measured;
}

const best = (runs: Measurement[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

/** Memory of Warren after each scale scenario's load, before it stopped. */
const memoryAfter: { scenario: string; memory: Memory }[] = [];

/** Warren's CPU time per request, per round. */
const cpuPerRequest: string[] = [];

/** Lines a scenario's background load reported, printed with the results. */
const backgroundReports: string[] = [];

interface Tree {
  /** Checkout to run Warren from (this one when undefined), the suffix of its rows, its seeded copy. */
  root?: string;
  label: string;
  seeded: SeededCopy | null;
}

async function runScenario(scenario: Scenario, tree: Tree): Promise<Row> {
  const name = scenario.name + tree.label;
  const bunFlags = profile ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.md`] : [];
  const seeded = tree.seeded;
  const warren = await startWarren({ bunFlags, env: scenario.env, dataDir: scenario.seeded ? seeded!.dir : undefined, root: tree.root });
  let bare: ChildServer | null = null;
  let stopBackground: (() => Promise<void | string[]>) | null = null;
  try {
    const client = new BenchClient(warren);
    const spec = await scenario.prepare(client, seeded?.manifest);
    bare = await startBare(await sample(warren.url, spec));
    stopBackground = (await scenario.background?.(client, seeded?.manifest)) ?? null;
    console.log(`${name}: ${rounds} round(s) of warren, then the bare handler…`);
    const warrenRuns: Measurement[] = [];
    const bareRuns: Measurement[] = [];
    const endBackground = async () => {
      const reported = await stopBackground?.();
      stopBackground = null;
      if (reported) backgroundReports.push(...reported.map((line) => `${name}: ${line}`));
    };
    for (let round = 0; round < rounds; round++) {
      const run = await measure(warren, spec, warren.pid);
      warrenRuns.push(run);
      // CPU per request: a steadier figure than the rate when other work shares the machine.
      cpuPerRequest.push(`${name}: Warren used ${((run.cpuSeconds! / run.requests) * 1e6).toFixed(0)} µs of CPU per request (all threads, background load included) in round ${round + 1}`);
      // A profiled Warren stops (and writes its profile) before the bare handler runs, so the profile is
      // not padded with idle time; its background load stops first.
      if (profile) await endBackground().then(() => warren.stop());
      bareRuns.push(await measure(bare, spec));
    }
    await endBackground();
    const memory = scenario.seeded ? memoryOf(warren.pid) : null;
    if (memory) memoryAfter.push({ scenario: name, memory });
    const warrenResult = best(warrenRuns);
    const bareResult = best(bareRuns);
    return {
      scenario: name,
      description: scenario.description,
      warren: warrenResult,
      bare: bareResult,
      ratio: warrenResult.rps / bareResult.rps,
    };
  } finally {
    await stopBackground?.();
    await bare?.stop();
    await warren.stop();
  }
}

/** Start-up on the seeded copy (spawn until /api/v2/instance answers), then its scale checks on one Warren. */
async function scaleFigures(copy: SeededCopy) {
  const started = performance.now();
  const warren: Warren = await startWarren({ dataDir: copy.dir });
  const startupMs = performance.now() - started;
  const idle = memoryOf(warren.pid);
  const checks: { name: string; description: string; limitMs: number; runsMs: number[] }[] = [];
  try {
    for (const check of SCALE_CHECKS.filter((c) => !only.length || only.includes(c.name))) {
      console.log(`${check.name}: ${check.description}…`);
      checks.push({ name: check.name, description: check.description, limitMs: check.limitMs, runsMs: await check.run(new BenchClient(warren), copy.manifest) });
    }
  } finally {
    await warren.stop();
  }
  return { startupMs, idle, checks };
}

const everyScenario = [...SCENARIOS, ...SCALE_SCENARIOS, searchStatusesHttp];
const scenarios = only.length ? everyScenario.filter((s) => only.includes(s.name)) : everyScenario;
const checks = only.length ? TIMED_CHECKS.filter((c) => only.includes(c.name)) : TIMED_CHECKS;
const scaleChecks = only.length ? SCALE_CHECKS.filter((c) => only.includes(c.name)) : SCALE_CHECKS;
const mediaChecks = only.length ? MEDIA_CHECKS.filter((c) => only.includes(c.name)) : MEDIA_CHECKS;
const deliveryChecks = only.length ? DELIVERY_CHECKS.filter((c) => only.includes(c.name)) : DELIVERY_CHECKS;
// Search (bench/scenarios/search.ts): its checks, and the index they and scale_search_statuses need, built first.
const searchChecks = new Set<string>(SEARCH_CHECK_NAMES.filter((name) => !only.length || only.includes(name)));
const searchWanted = searchChecks.size > 0 || scenarios.includes(searchStatusesHttp);
if (scenarios.length + checks.length + scaleChecks.length + mediaChecks.length + deliveryChecks.length + searchChecks.size === 0) {
  console.error(`no scenario named ${only.join(", ")}; known: ${[...everyScenario, ...TIMED_CHECKS, ...SCALE_CHECKS, ...MEDIA_CHECKS, ...DELIVERY_CHECKS].map((s) => s.name).concat(SEARCH_CHECK_NAMES).join(", ")}`);
  process.exit(64);
}
const seeded = scenarios.some((s) => s.seeded) || scaleChecks.length || searchWanted ? await seededCopy(process.argv.slice(2)) : null;
const baselineSeeded = baseline && scenarios.some((s) => s.seeded) ? await seededCopy(process.argv.slice(2)) : null;
process.on("exit", () => {
  seeded?.remove();
  baselineSeeded?.remove();
});
const trees: Tree[] = [{ label: "", seeded }, ...(baseline ? [{ root: baseline, label: " (baseline)", seeded: baselineSeeded }] : [])];
// --baseline-first: the baseline's Warren runs each scenario before this tree's (alternate runs, to even out drift).
if (process.argv.includes("--baseline-first")) trees.reverse();
const searchReports = seeded && searchWanted ? await searchFigures(seeded, searchChecks) : [];
const scale = seeded && (scenarios.some((s) => s.seeded) || scaleChecks.length) ? await scaleFigures(seeded) : null;

const rows: Row[] = [];
for (const scenario of scenarios) for (const tree of trees) rows.push(await runScenario(scenario, tree));
const timed: { name: string; description: string; limitMs: number; runsMs: number[] }[] = [];
for (const check of checks) {
  console.log(`${check.name}: ${check.description}…`);
  timed.push({ name: check.name, description: check.description, limitMs: check.limitMs, runsMs: await check.run() });
}
const media: MediaReport[] = [];
for (const check of mediaChecks) media.push(await check.run({ durationMs, warmupMs, rounds }));
// Federation delivery (bench/scenarios/federation-delivery.ts): one post to 500 loopback servers, per round.
const deliveries: DeliveryReport[] = [];
for (const check of deliveryChecks) deliveries.push(await check.run({ rounds }));

const when = new Date().toISOString();
console.log(`\nWarren benchmark ${when}: ${connections} connections, ${threads} generator thread(s), ` +
  `best of ${rounds} runs of ${durationMs / 1000}s after ${warmupMs / 1000}s warm-up each, ${availableParallelism()} CPUs, Bun ${Bun.version}\n`);
if (rows.length) console.log(table(rows));
for (const scenario of scenarios) {
  const [row, base] = [rows.find((r) => r.scenario === scenario.name), rows.find((r) => r.scenario === scenario.variantOf)];
  if (row && base) console.log(`\n${row.scenario} / ${base.scenario}: ${(row.ratio / base.ratio).toFixed(3)} (their ratios to the bare handler)`);
}
if (cpuPerRequest.length) console.log(`\n${cpuPerRequest.join("\n")}`);
if (backgroundReports.length) console.log(`\n${backgroundReports.join("\n")}`);
for (const check of timed) {
  console.log(`\n${check.name} (${check.description}): ${check.runsMs.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}; limit ${check.limitMs} ms`);
}
for (const report of media) console.log(`\n${report.lines.join("\n")}`);
for (const report of deliveries) console.log(`\n${report.lines.join("\n")}`);
for (const report of searchReports) console.log(`\n${report.lines.join("\n")}`);
const issues = [
  ...problems(rows),
  ...media.flatMap((report) => report.problems),
  ...deliveries.flatMap((report) => report.problems),
  ...searchReports.flatMap((report) => report.problems),
  ...timed.filter((c) => Math.max(...c.runsMs) > c.limitMs).map((c) => `${c.name}: slowest run ${Math.max(...c.runsMs).toFixed(0)} ms > ${c.limitMs} ms`),
];
if (seeded && scale) {
  const m = seeded.manifest;
  const mb = (memory: Memory | null) => (memory ? `${memory.rssMb.toFixed(0)} MB RSS (${memory.anonMb.toFixed(0)} MB anonymous)` : "n/a");
  console.log(`\nseeded instance ${seeded.source}: ${m.accounts} accounts, ${m.statuses} statuses (${m.counts.posts} posts, ${m.counts.replies} replies, ` +
    `${m.counts.reblogs} reblogs), ${m.counts.favourites} favourites, ${m.counts.follows} follows, largest account ${m.largest.followers} followers; ` +
    `seeded in ${m.seconds.total.toFixed(0)} s`);
  console.log(`data: ${(m.dataBytes / 2 ** 20).toFixed(0)} MiB after seeding, ${(m.dataBytes / m.statuses * 100_000 / 2 ** 20).toFixed(0)} MiB per 100k statuses`);
  console.log(`start-up on it: ${scale.startupMs.toFixed(0)} ms; memory idle after start-up: ${mb(scale.idle)}`);
  for (const { scenario, memory } of memoryAfter) console.log(`memory after ${scenario}: ${mb(memory)}`);
  for (const check of scale.checks) {
    const sorted = [...check.runsMs].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(0);
    console.log(`${check.name} (${check.description}): p50 ${at(50)} ms, p99 ${at(99)} ms, max ${at(100)} ms over ${sorted.length}; limit ${check.limitMs} ms`);
    timed.push(check);
    if (Math.max(...check.runsMs) > check.limitMs) issues.push(`${check.name}: slowest ${Math.max(...check.runsMs).toFixed(0)} ms > ${check.limitMs} ms`);
  }
}
if (issues.length) console.log(`\nproblems:\n  ${issues.join("\n  ")}`);

mkdirSync(outDir, { recursive: true });
if (profile) console.log(`\nCPU profiles of Warren: ${profileDir}/`);
const settings = { connections, threads, durationMs, warmupMs, rounds, cpus: availableParallelism(), bun: Bun.version };
writeFileSync(join(outDir, `${when.replaceAll(":", "-")}.json`), JSON.stringify({ when, settings, rows, timed, media: media.map((r) => ({ name: r.name, ...r.figures })), search: searchReports.map((r) => ({ name: r.name, ...r.figures })), deliveries: deliveries.map((r) => ({ name: r.name, ...r.figures })) }, (_k, v) => (v instanceof Float64Array ? undefined : v), 2));
if (issues.length) process.exitCode = 1;
