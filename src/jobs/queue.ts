// The durable job queue: jobs are LMDB records written in the same transaction as the change that needs
// them, so a change and its follow-up work commit together. See runner.ts for how they are run and
// docs/jobs.md for the guarantees.
import { newId } from "../lib/ids.ts";
import type { Store } from "../store/db.ts";
import { putJob, type JobCounts, type JobRecord } from "../store/jobs.ts";

export const DEFAULT_MAX_ATTEMPTS = 8;

/**
 * Which share of the workers a job waits for (docs/jobs.md): `realtime` for what a user is waiting to see
 * (fan-out, notifications, stream signals), `default` for clean-ups, `network` for work that waits on other
 * servers (link cards, e-mail, deliveries), `backfill` for bulk feed work nobody is watching.
 */
export type Lane = "realtime" | "default" | "network" | "backfill";
export const LANES: readonly Lane[] = ["realtime", "default", "network", "backfill"];

export interface EnqueueOptions {
  delayMs?: number;
  maxAttempts?: number;
  /** Overrides the lane declared for the job type (handlers/index.ts `lanes`). */
  lane?: Lane;
}

/** What a handler raises with `ctx.emit`: any structured-clonable (in practice JSON) object. */
export type JobEvent = Record<string, unknown>;
export type JobEventListener = (event: JobEvent) => void;

/** The part of the queue that handlers and domain code need: adding jobs inside a write. */
export interface JobEnqueuer {
  /** Must be called inside `store.write(...)`: the job commits with the surrounding change. */
  enqueue(type: string, payload: unknown, options?: EnqueueOptions): string;
}

export interface JobQueue extends JobEnqueuer {
  /** Releases jobs claimed by dead processes, then claims and runs due jobs. Rejects if handlers fail to load. */
  start(): Promise<void>;
  /** Stops claiming new jobs (running ones finish); tests use it to hold clean-up back. */
  pause(): void;
  resume(): void;
  /** Resolves when no job is due or running (delayed jobs not yet due are ignored); while paused or
   * stopped, only waits for the jobs already running. */
  drain(): Promise<void>;
  /** Graceful shutdown: stops claiming, waits for running jobs up to a grace period, releases the rest
   * back to the queue and terminates the workers. */
  stop(): Promise<void>;
  /** Listens to events raised by handlers, inline or in a worker thread. Returns the unsubscribe function. */
  onEvent(listener: JobEventListener): () => void;
  /** Numbers of waiting (including delayed), running and dead jobs. */
  stats(): JobCounts;
}

/** The store half of enqueue, shared by the queue and by worker threads. Inside a write. */
export function enqueueJob(store: Store, type: string, payload: unknown, options: EnqueueOptions = {}): string {
  const now = Date.now();
  const job: JobRecord = {
    v: 1,
    id: newId(now),
    type,
    payload,
    attempts: 0,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    createdAt: now,
    runAt: now + (options.delayMs ?? 0),
    lastError: null,
  };
  putJob(store, job);
  return job.id;
}
