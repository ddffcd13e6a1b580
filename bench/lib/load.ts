// The load generator: `threads` Worker threads share `connections` concurrent keep-alive request loops
// (http1.ts), each sending its next request as soon as the previous response has been read.
import { summarise, type Measurement } from "./stats.ts";

export interface RequestSpec {
  method: string;
  /** Path on the server under test, e.g. /api/v1/accounts/verify_credentials; `{{n}}` here is an 8-digit
   * number unique per request (reads that must miss the page cache, e.g. a varying max_id). */
  path: string;
  headers?: Record<string, string>;
  /** Headers that change from request to request (e.g. 1,000 readers' tokens): request n adds the n-th, in turn. */
  headerVariants?: Record<string, string>[];
  /** Sent as is; `{{n}}` is replaced by a counter unique per request (for writes that must differ). */
  body?: string;
  /** The status every response must have (default 200); others are counted and reported. */
  expectStatus?: number;
}

export interface LoadJob {
  url: string;
  method: string;
  headers: Record<string, string>;
  headerVariants: Record<string, string>[];
  body?: string;
  expectStatus: number;
  connections: number;
  durationMs: number;
  thread: number;
}

export interface LoadResult {
  latencies: Float64Array;
  seconds: number;
  errors: number;
  unexpected: Record<string, number>;
}

export interface LoadOptions {
  connections: number;
  threads: number;
  durationMs: number;
}

function runThread(job: LoadJob): Promise<LoadResult> {
  const worker = new Worker(new URL("./load-worker.ts", import.meta.url));
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<LoadResult>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (event) => {
      reject(new Error(`load worker failed: ${event.message}`));
      worker.terminate();
    };
    worker.postMessage(job);
  });
}

export async function generateLoad(baseUrl: string, spec: RequestSpec, options: LoadOptions): Promise<Measurement> {
  const threads = Math.max(1, Math.min(options.threads, options.connections));
  const jobs = Array.from({ length: threads }, (_, thread): LoadJob => ({
    url: baseUrl + spec.path,
    method: spec.method,
    headers: spec.headers ?? {},
    headerVariants: spec.headerVariants ?? [],
    body: spec.body,
    expectStatus: spec.expectStatus ?? 200,
    // Spread connections as evenly as possible over the threads.
    connections: Math.floor(options.connections / threads) + (thread < options.connections % threads ? 1 : 0),
    durationMs: options.durationMs,
    thread,
  }));
  const results = await Promise.all(jobs.map(runThread));
  const unexpected: Record<string, number> = {};
  for (const result of results) {
    for (const [status, count] of Object.entries(result.unexpected)) unexpected[status] = (unexpected[status] ?? 0) + count;
  }
  const seconds = Math.max(...results.map((r) => r.seconds));
  const errors = results.reduce((n, r) => n + r.errors, 0);
  return summarise(results.map((r) => r.latencies), errors, seconds, unexpected);
}
