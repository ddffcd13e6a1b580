// `npm run bench`: each scenario against Warren and against a bare Bun.serve handler returning the same bytes,
// in the same run, on loopback. Prints requests/s, p50/p99 latency and Warren's throughput ratio to the bare
// handler; keeps the numbers in .bench/<timestamp>.json. See docs/benchmarks.md.
//
//   bun bench/run.ts [--duration=5] [--warmup=1] [--rounds=2] [--connections=50] [--threads=N] [--only=name,...]
//                    [--profile]   (one round; Warren runs under bun --cpu-prof-md, profiles in .bench/profiles/)
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { BenchClient } from "./lib/client.ts";
import { generateLoad, type LoadOptions, type RequestSpec } from "./lib/load.ts";
import { problems, table, type Row } from "./lib/report.ts";
import type { Measurement } from "./lib/stats.ts";
import { startBare, startWarren, type ChildServer, type Sample } from "./lib/servers.ts";
import { SCENARIOS, TIMED_CHECKS } from "./scenarios/index.ts";
import type { Scenario } from "./scenarios/types.ts";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
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
const profileDir = join(outDir, "profiles");

async function sample(url: string, spec: RequestSpec): Promise<Sample> {
  const res = await fetch(url + spec.path.replaceAll("{{n}}", "00000000"), { method: spec.method, headers: spec.headers, body: spec.body?.replaceAll("{{n}}", "sample") });
  const body = await res.bytes();
  if (res.status !== (spec.expectStatus ?? 200)) {
    throw new Error(`${spec.method} ${spec.path} answered ${res.status}: ${new TextDecoder().decode(body)}`);
  }
  return { status: res.status, contentType: res.headers.get("content-type") ?? "application/octet-stream", body };
}

async function measure(server: ChildServer, spec: RequestSpec): Promise<Measurement> {
  const options: LoadOptions = { connections, threads, durationMs };
  if (warmupMs > 0) await generateLoad(server.url, spec, { ...options, durationMs: warmupMs });
  return generateLoad(server.url, spec, options);
}

const best = (runs: Measurement[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

async function runScenario(scenario: Scenario): Promise<Row> {
  const bunFlags = profile ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${scenario.name}.md`] : [];
  const warren = await startWarren({ bunFlags, env: scenario.env });
  let bare: ChildServer | null = null;
  try {
    const spec = await scenario.prepare(new BenchClient(warren));
    bare = await startBare(await sample(warren.url, spec));
    console.log(`${scenario.name}: ${rounds} round(s) of warren, then the bare handler…`);
    const warrenRuns: Measurement[] = [];
    const bareRuns: Measurement[] = [];
    for (let round = 0; round < rounds; round++) {
      warrenRuns.push(await measure(warren, spec));
      // A profiled Warren stops (and writes its profile) before the bare handler runs, so the profile is
      // not padded with idle time.
      if (profile) await warren.stop();
      bareRuns.push(await measure(bare, spec));
    }
    const warrenResult = best(warrenRuns);
    const bareResult = best(bareRuns);
    return {
      scenario: scenario.name,
      description: scenario.description,
      warren: warrenResult,
      bare: bareResult,
      ratio: warrenResult.rps / bareResult.rps,
    };
  } finally {
    await bare?.stop();
    await warren.stop();
  }
}

const scenarios = only.length ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
const checks = only.length ? TIMED_CHECKS.filter((c) => only.includes(c.name)) : TIMED_CHECKS;
if (scenarios.length + checks.length === 0) {
  console.error(`no scenario named ${only.join(", ")}; known: ${[...SCENARIOS, ...TIMED_CHECKS].map((s) => s.name).join(", ")}`);
  process.exit(64);
}

const rows: Row[] = [];
for (const scenario of scenarios) rows.push(await runScenario(scenario));
const timed: { name: string; description: string; limitMs: number; runsMs: number[] }[] = [];
for (const check of checks) {
  console.log(`${check.name}: ${check.description}…`);
  timed.push({ name: check.name, description: check.description, limitMs: check.limitMs, runsMs: await check.run() });
}

const when = new Date().toISOString();
console.log(`\nWarren benchmark ${when}: ${connections} connections, ${threads} generator thread(s), ` +
  `best of ${rounds} runs of ${durationMs / 1000}s after ${warmupMs / 1000}s warm-up each, ${availableParallelism()} CPUs, Bun ${Bun.version}\n`);
if (rows.length) console.log(table(rows));
for (const scenario of scenarios) {
  const [row, base] = [rows.find((r) => r.scenario === scenario.name), rows.find((r) => r.scenario === scenario.variantOf)];
  if (row && base) console.log(`\n${row.scenario} / ${base.scenario}: ${(row.ratio / base.ratio).toFixed(3)} (their ratios to the bare handler)`);
}
for (const check of timed) {
  console.log(`\n${check.name} (${check.description}): ${check.runsMs.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}; limit ${check.limitMs} ms`);
}
const issues = [
  ...problems(rows),
  ...timed.filter((c) => Math.max(...c.runsMs) > c.limitMs).map((c) => `${c.name}: slowest run ${Math.max(...c.runsMs).toFixed(0)} ms > ${c.limitMs} ms`),
];
if (issues.length) console.log(`\nproblems:\n  ${issues.join("\n  ")}`);

mkdirSync(outDir, { recursive: true });
if (profile) console.log(`\nCPU profiles of Warren: ${profileDir}/`);
const settings = { connections, threads, durationMs, warmupMs, rounds, cpus: availableParallelism(), bun: Bun.version };
writeFileSync(join(outDir, `${when.replaceAll(":", "-")}.json`), JSON.stringify({ when, settings, rows, timed }, (_k, v) => (v instanceof Float64Array ? undefined : v), 2));
if (issues.length) process.exitCode = 1;
