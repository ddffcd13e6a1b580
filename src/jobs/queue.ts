// The durable job queue: jobs are LMDB records written in the same transaction as the change that needs
// them, so a change and its follow-up work commit together. See runner.ts for how they are run.
import { newId } from "../lib/ids.ts";
import type { Store } from "../store/db.ts";
import { putJob, type JobRecord } from "../store/jobs.ts";

export const DEFAULT_MAX_ATTEMPTS = 8;

export interface EnqueueOptions {
  delayMs?: number;
  maxAttempts?: number;
}

export interface JobQueue {
  /** Must be called inside `store.write(...)`: the job commits with the surrounding change. */
  enqueue(type: string, payload: unknown, options?: EnqueueOptions): string;
  /** Starts claiming and running due jobs. */
  start(): void;
  /** Stops claiming new jobs (running ones finish); tests use it to hold clean-up back. */
  pause(): void;
  resume(): void;
  /** Runs until no job is due or running (tests). */
  drain(): Promise<void>;
  /** Graceful shutdown: finishes or releases claimed jobs. */
  stop(): Promise<void>;
}

/** The store half of enqueue, shared by the queue and by worker threads. */
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
