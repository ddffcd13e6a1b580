// A whole run: a fresh server, fixtures, the operations of its /openapi/json, `count` generated requests
// with a few in flight, memory sampled throughout, the invariants checked before and after.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtures } from "./fixtures.ts";
import { INBOX_OPERATIONS } from "./inbox.ts";
import { enabledStrategies, generate, type Generator } from "./generate.ts";
import { checkInvariants } from "./invariants.ts";
import { summary, writeFailure, type FuzzResult, type MemoryFigures, type Tally } from "./report.ts";
import { isFailure, send } from "./send.ts";
import { startServer, type ServerUnderTest } from "./server.ts";
import { memoryOf, type Memory } from "../../bench/lib/memory.ts";

/** The server's memory now (undefined once it has gone). */
const serverMemory = (server: ServerUnderTest): Memory | undefined => memoryOf(server.pid) ?? undefined;
import { operationsOf } from "./spec.ts";

export interface FuzzOptions {
  seed: number;
  count: number;
  concurrency: number;
  timeoutMs: number;
  /** Fail when anonymous memory grows more than this after warm-up. */
  maxGrowthMb: number;
  /** Strategies to leave out (see mutate.ts). */
  without: string[];
  /** Only these request numbers (to replay failures). */
  only?: number[];
  /** Keep the data directory even when the run passes. */
  keep?: boolean;
  progress?: (line: string) => void;
}

const DETAILED_FAILURES = 200;

function count<K>(map: Map<K, number>, key: K) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

async function buildGenerator(server: ServerUnderTest, strategies: Generator["strategies"]): Promise<Generator> {
  const { pools, credentials } = await createFixtures(server);
  const document = await (await fetch(`${server.url}/openapi/json`)).json();
  return { operations: [...operationsOf(document as any), ...INBOX_OPERATIONS], pools, credentials, strategies };
}

/** Sends the requests, `concurrency` at a time; stops early if the server dies. */
async function drive(server: ServerUnderTest, generator: Generator, options: FuzzOptions, tally: Tally, dir: string): Promise<boolean> {
  const indices = options.only ?? Array.from({ length: options.count }, (_, i) => i);
  const warmAt = Math.floor(indices.length / 10);
  let next = 0;
  let done = 0;
  let serverDied = false;
  const worker = async () => {
    while (next < indices.length && !serverDied) {
      const index = indices[next++]!;
      const request = await generate(generator, options.seed, index);
      const logBefore = server.output().length;
      const outcome = await send(server.url, request, options.timeoutMs);
      count(tally.perOperation.get(request.operation)!, outcome.status);
      count(tally.statuses, outcome.status);
      count(tally.strategies, request.strategy);
      if (request.strategy === "valid") count(tally.validStatuses, outcome.status);
      if (isFailure(request, outcome) && ++tally.failureCount <= DETAILED_FAILURES) {
        const failure = { request, outcome, serverLog: server.output().slice(logBefore, logBefore + 65_536) };
        tally.failures.push(failure);
        writeFailure(dir, server.url, options.seed, failure);
      }
      if (server.exitCode() !== null && !serverDied) {
        serverDied = true;
        tally.problems.push(`the server exited with code ${server.exitCode()} during request ${index} (${request.operation})`);
      }
      if (++done === warmAt) tally.memory.warm = serverMemory(server);
      if (done % 1000 === 0) {
        const peak = Math.round(tally.memory.peak?.anonMb ?? 0);
        const own = Math.round(process.memoryUsage().rss / 1048576);
        options.progress?.(`${done}/${indices.length} requests, ${tally.failureCount} failures, server peak ${peak} MB, fuzzer ${own} MB`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return !serverDied;
}

function checkGrowth(memory: MemoryFigures, problems: string[]): void {
  if (!memory.warm || !memory.end) return;
  memory.growthMb = memory.end.anonMb - memory.warm.anonMb;
  if (memory.growthMb > memory.boundMb) {
    problems.push(`anonymous memory grew ${memory.growthMb.toFixed(0)} MB after warm-up (bound ${memory.boundMb} MB)`);
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const strategies = enabledStrategies(options.without);
  const dir = mkdtempSync(join(tmpdir(), "warren-fuzz-"));
  const server = await startServer(join(dir, "data"));
  // The server is a child process: an interrupted run must not leave it behind.
  const interrupted = () => void server.stop().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const tally: Tally = {
    perOperation: new Map(),
    statuses: new Map(),
    strategies: new Map(),
    validStatuses: new Map(),
    failures: [],
    failureCount: 0,
    problems: [],
    memory: { boundMb: options.maxGrowthMb },
  };
  const { memory, problems } = tally;
  const started = performance.now();
  try {
    const generator = await buildGenerator(server, strategies);
    for (const op of generator.operations) tally.perOperation.set(op.key, new Map());
    problems.push(...(await checkInvariants(server.url, "before")).map((p) => `before the run: ${p}`));

    memory.start = serverMemory(server);
    const sampler = setInterval(() => {
      const sample = serverMemory(server);
      if (sample && (!memory.peak || sample.anonMb > memory.peak.anonMb)) memory.peak = sample;
    }, 500);
    const alive = await drive(server, generator, options, tally, dir).finally(() => clearInterval(sampler));
    memory.end = serverMemory(server);
    checkGrowth(memory, problems);
    if (alive) problems.push(...(await checkInvariants(server.url, "after")).map((p) => `after the run: ${p}`));
  } catch (error) {
    problems.push(`the run itself failed: ${error instanceof Error ? error.stack : String(error)}\n${server.output().slice(-4000)}`);
  } finally {
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await server.stop();
  }
  const result: FuzzResult = {
    ...tally,
    ok: tally.failureCount === 0 && problems.length === 0,
    seed: options.seed,
    requests: [...tally.statuses.values()].reduce((a, b) => a + b, 0),
    operations: tally.perOperation.size,
    durationMs: performance.now() - started,
    concurrency: options.concurrency,
    dir,
  };
  if (result.ok && !options.keep) rmSync(dir, { recursive: true, force: true });
  else writeFileSync(join(dir, "summary.txt"), summary(result) + "\n");
  return result;
}
