// A whole run: a fresh server, fixtures, the operations of its /openapi/json, `count` generated requests
// with a few in flight, memory sampled throughout, the invariants checked before and after.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtures } from "./fixtures.ts";
import { enabledStrategies, generate, type Generator } from "./generate.ts";
import { checkInvariants } from "./invariants.ts";
import { summary, writeFailure, type Failure, type FuzzResult, type MemoryFigures } from "./report.ts";
import { isFailure, send } from "./send.ts";
import { sampleMemory, startServer, type ServerUnderTest } from "./server.ts";
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

async function buildGenerator(server: ServerUnderTest, without: string[]): Promise<Generator> {
  const { pools, credentials } = await createFixtures(server);
  const document = await (await fetch(`${server.url}/openapi/json`)).json();
  return { operations: operationsOf(document as any), pools, credentials, strategies: enabledStrategies(without) };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const dir = mkdtempSync(join(tmpdir(), "warren-fuzz-"));
  const server = await startServer(join(dir, "data"));
  const progress = options.progress ?? (() => {});
  const problems: string[] = [];
  const failures: Failure[] = [];
  const perOperation = new Map<string, Map<string, number>>();
  const statuses = new Map<string, number>();
  const strategies = new Map<string, number>();
  const validStatuses = new Map<string, number>();
  const memory: MemoryFigures = { boundMb: options.maxGrowthMb };
  let failureCount = 0;
  let generator: Generator;
  const started = performance.now();
  try {
    generator = await buildGenerator(server, options.without);
    for (const op of generator.operations) perOperation.set(op.key, new Map());
    problems.push(...(await checkInvariants(server.url, "before")).map((p) => `before the run: ${p}`));

    memory.start = sampleMemory(server.pid);
    const sampler = setInterval(() => {
      const sample = sampleMemory(server.pid);
      if (sample && (!memory.peak || sample.anonKb > memory.peak.anonKb)) memory.peak = sample;
    }, 500);

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
        count(perOperation.get(request.operation)!, outcome.status);
        count(statuses, outcome.status);
        count(strategies, request.strategy);
        if (request.strategy === "valid") count(validStatuses, outcome.status);
        if (isFailure(request, outcome)) {
          failureCount++;
          if (failures.length < DETAILED_FAILURES) {
            const failure = { request, outcome, serverLog: server.output().slice(logBefore, logBefore + 8000) };
            failures.push(failure);
            writeFailure(dir, server.url, options.seed, failure);
          }
        }
        if (server.exitCode() !== null) {
          serverDied = true;
          problems.push(`the server exited with code ${server.exitCode()} during request ${index} (${request.operation})`);
        }
        if (++done === warmAt) memory.warm = sampleMemory(server.pid);
        if (done % 1000 === 0) progress(`${done}/${indices.length} requests, ${failureCount} failures, ${Math.round((memory.peak?.anonKb ?? 0) / 1024)} MB peak`);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    clearInterval(sampler);
    memory.end = sampleMemory(server.pid);
    if (memory.warm && memory.end) {
      memory.growthMb = (memory.end.anonKb - memory.warm.anonKb) / 1024;
      if (memory.growthMb > options.maxGrowthMb) {
        problems.push(`anonymous memory grew ${memory.growthMb.toFixed(0)} MB after warm-up (bound ${options.maxGrowthMb} MB)`);
      }
    }
    if (!serverDied) problems.push(...(await checkInvariants(server.url, "after")).map((p) => `after the run: ${p}`));
  } catch (error) {
    problems.push(`the run itself failed: ${error instanceof Error ? error.stack : String(error)}\n${server.output().slice(-4000)}`);
  } finally {
    await server.stop();
  }
  const result: FuzzResult = {
    ok: failureCount === 0 && problems.length === 0,
    seed: options.seed,
    requests: [...statuses.values()].reduce((a, b) => a + b, 0),
    operations: perOperation.size,
    durationMs: performance.now() - started,
    concurrency: options.concurrency,
    perOperation,
    statuses,
    strategies,
    validStatuses,
    failures,
    failureCount,
    problems,
    memory,
    dir,
  };
  if (result.ok && !options.keep) rmSync(dir, { recursive: true, force: true });
  else writeFileSync(join(dir, "summary.txt"), summary(result) + "\n");
  return result;
}
