// The run's summary and, for every failure, a file that replays it: the request as a curl line (the body
// beside it) and the command that regenerates it against a fresh server.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FuzzRequest } from "./generate.ts";
import type { Outcome } from "./send.ts";
import type { Memory } from "../../bench/lib/memory.ts";

export interface Failure {
  request: FuzzRequest;
  outcome: Outcome;
  /** What the server logged while the request was in flight. */
  serverLog: string;
}

export interface MemoryFigures {
  start?: Memory;
  /** After the first tenth of the run: the baseline for growth (caches and JIT have settled). */
  warm?: Memory;
  peak?: Memory;
  end?: Memory;
  boundMb: number;
  growthMb?: number;
}

/** What the requests got, counted as they come back. */
export interface Tally {
  perOperation: Map<string, Map<string, number>>;
  statuses: Map<string, number>;
  strategies: Map<string, number>;
  /** Statuses of the unspoiled requests (strategy "valid"): shows that fixtures let them through. */
  validStatuses: Map<string, number>;
  /** The first failures, in detail (files under dir/failures). */
  failures: Failure[];
  failureCount: number;
  /** Invariant violations, a server that exited, memory beyond the bound. */
  problems: string[];
  memory: MemoryFigures;
}

export interface FuzzResult extends Tally {
  ok: boolean;
  seed: number;
  requests: number;
  operations: number;
  durationMs: number;
  concurrency: number;
  dir: string;
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const mb = (value: number | undefined) => (value === undefined ? "?" : value.toFixed(0));

export function curlLine(base: string, request: FuzzRequest, bodyFile: string): string {
  const headers = Object.entries(request.headers).map(([k, v]) => ` -H ${quote(`${k}: ${v}`)}`).join("");
  const body = request.body ? ` --data-binary @${bodyFile}` : "";
  return `curl -sS -g -X ${request.method} ${quote(base + request.target)}${headers}${body}`;
}

/** Replays a raw request with nothing but bash: the bytes on a socket, then the first bytes of the answer. */
function rawLine(base: string, file: string): string {
  const { hostname, port } = new URL(base);
  return `bash -c ${quote(`exec 3<>/dev/tcp/${hostname}/${port}; cat ${file} >&3; timeout 10 cat <&3`)}`;
}

export function writeFailure(dir: string, base: string, seed: number, failure: Failure): string {
  const { request, outcome } = failure;
  const folder = join(dir, "failures");
  mkdirSync(folder, { recursive: true });
  const name = `${request.index}-${outcome.status}`;
  const bodyFile = join(folder, `${name}.body`);
  if (request.body) writeFileSync(bodyFile, request.body);
  if (request.raw) writeFileSync(join(folder, `${name}.raw`), request.raw);
  if (request.frames) writeFileSync(join(folder, `${name}.frames.json`), JSON.stringify(request.frames.map(String)));
  const file = join(folder, `${name}.txt`);
  writeFileSync(
    file,
    [
      `${request.operation} → ${outcome.status} after ${outcome.ms} ms`,
      `strategy: ${request.strategy}; auth: ${request.auth}; kind: ${request.kind}`,
      `regenerate against a fresh server: bun scripts/fuzz.ts --seed ${seed} --only ${request.index}`,
      "",
      request.raw ? rawLine(base, join(folder, `${name}.raw`)) : curlLine(base, request, bodyFile),
      "",
      "answer:",
      outcome.detail,
      "",
      "server log while in flight:",
      failure.serverLog,
    ].join("\n"),
  );
  return file;
}

function histogram(counts: Map<string, number>): string {
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k}: ${n}`).join(", ");
}

export function summary(result: FuzzResult): string {
  const { memory } = result;
  const seconds = result.durationMs / 1000;
  const lines = [
    `Warren fuzz: seed ${result.seed}, ${result.requests} requests over ${result.operations} operations in ${seconds.toFixed(0)} s ` +
      `(${(result.requests / seconds).toFixed(0)} req/s, ${result.concurrency} in flight)`,
    `statuses: ${histogram(result.statuses)}`,
    `strategies: ${histogram(result.strategies)}`,
    `statuses of valid requests: ${histogram(result.validStatuses)}`,
    `server memory, MB anonymous / resident: start ${mb(memory.start?.anonMb)} / ${mb(memory.start?.rssMb)}, ` +
      `after warm-up ${mb(memory.warm?.anonMb)} / ${mb(memory.warm?.rssMb)}, peak ${mb(memory.peak?.anonMb)} / ${mb(memory.peak?.rssMb)}, ` +
      `end ${mb(memory.end?.anonMb)} / ${mb(memory.end?.rssMb)}; anonymous growth after warm-up ${memory.growthMb?.toFixed(0) ?? "?"} MB ` +
      `(bound ${memory.boundMb} MB)`,
    "per operation:",
    ...[...result.perOperation].map(([key, counts]) => {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return `  ${key.padEnd(56)} ${String(total).padStart(6)}  ${histogram(counts)}`;
    }),
    `failures (5xx, hangs, WebSocket server errors): ${result.failureCount}`,
    ...result.problems.map((p) => `PROBLEM: ${p}`),
    result.ok ? "OK" : `FAILED; details under ${result.dir}`,
  ];
  return lines.join("\n");
}
