// What the supervisor (supervisor.ts) and the server processes it starts (link.ts) tell each other over the
// IPC channel Bun.spawn opens. Stream signals carry ids only (src/domain/streaming/signals.ts).
import type { Count, Limit } from "../http/plugins/rate-limits/windows.ts";
import type { Collected } from "../lib/metrics/registry.ts";
import type { ProcessMetrics } from "../lib/metrics/processes.ts";
import type { CountDelta } from "./rate-counts.ts";

/** Child → supervisor. */
export type ChildMessage =
  /** Listening and running jobs: a rolling restart may now stop the process it replaces. */
  | { type: "ready" }
  /** A stream signal raised in this process (after its commit), for every other process's streams. */
  | { type: "signal"; event: Record<string, unknown> }
  /** Count one request against a small-budget rate limit; answered with `count` and the same id. */
  | { type: "hit"; id: number; limit: Limit; key: string; now: number }
  /** Requests counted here against the busy rate limits since the last time (rate-counts.ts). */
  | { type: "counts"; deltas: CountDelta[] }
  /** A scrape of /metrics: every process's metrics, answered with `gathered`. */
  | { type: "gather"; id: number }
  /** This process's own metrics, answering `collect`. */
  | { type: "collected"; id: number; metrics: Collected[] };

/** Supervisor → child. */
export type SupervisorMessage =
  | { type: "signal"; event: Record<string, unknown> }
  | { type: "count"; id: number; count: Count }
  /** The other processes' counts of the busy rate limits that changed. */
  | { type: "others"; others: CountDelta[] }
  | { type: "collect"; id: number }
  | { type: "gathered"; id: number; processes: ProcessMetrics[] };

/** Set in each server process's environment: its slot (0 … WARREN_PROCESSES-1). */
export const PROCESS_INDEX_ENV = "WARREN_PROCESS_INDEX";

