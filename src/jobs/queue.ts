// The durable job queue: jobs are LMDB records written in the same transaction as the change that needs
// them, so a change and its follow-up work commit together. See runner.ts for how they are run and
// docs/jobs.md for the guarantees.
import { newId } from "../lib/ids.ts";
import type { Store } from "../store/db.ts";
import { putJob } from "../store/jobs.ts";
import { DEFAULT_LANE, type Lane } from "./lanes.ts";
import type { JobCounts, JobRecord } from "../model/jobs.ts";

export const DEFAULT_MAX_ATTEMPTS = 8;

export interface EnqueueOptions {
  delayMs?: number;
  maxAttempts?: number;
  /** Overrides the lane declared for the job type (`lanes` of its handler module; `default` otherwise). */
  lane?: Lane;
  /** Whose work this is, in a lane that shares fairly between groups (LANE_POLICY perGroup; jobs/fair.ts). */
  group?: string;
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
    v: 2,
    id: newId(now),
    type,
    lane: options.lane ?? DEFAULT_LANE,
    payload,
    attempts: 0,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    createdAt: now,
    runAt: now + (options.delayMs ?? 0),
    lastError: null,
    ...(options.group !== undefined && { group: options.group }),
  };
  putJob(store, job);
  return job.id;
}

/**
 * An enqueuer for one thread: jobs get their type's lane unless the caller names one, and `signal` runs once
 * the write holding them has committed (the runner's one wake-up path; a worker forwards it to the main
 * thread). Several enqueues in a row share one signal.
 */
export function committedEnqueuer(store: Store, laneOf: (type: string) => Lane, signal: () => void): JobEnqueuer {
  let waiting = false;
  let more = false;
  const arm = () => {
    waiting = true;
    more = false;
    store.flushed().then(
      () => {
        waiting = false;
        signal();
        // A job enqueued while we waited may belong to a later write than the one just flushed.
        if (more) arm();
      },
      () => (waiting = false),
    );
  };
  return {
    enqueue(type, payload, options = {}) {
      const id = enqueueJob(store, type, payload, { ...options, lane: options.lane ?? laneOf(type) });
      if (waiting) more = true;
      else arm();
      return id;
    },
  };
}
