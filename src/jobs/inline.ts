// Runs batches on the main thread (WARREN_JOB_WORKERS=0, as in tests): one batch per lane at a time. The pool
// in pool.ts offers the same Executor interface with worker threads.
import type { ClaimedJob } from "../store/jobs.ts";
import { runBatch, type ThreadContext } from "./batch.ts";
import type { Lane } from "./lanes.ts";
import type { Outcome } from "./registry.ts";

export interface Executor {
  /** How many more batches of `lane` it can start right now. */
  free(lane: Lane): number;
  /** Runs a batch of claimed jobs of one lane; resolves with their outcomes, in order. Never rejects. */
  run(lane: Lane, batch: ClaimedJob[]): Promise<Outcome[]>;
  close(): Promise<void>;
}

export function timedOut(ms: number): Outcome & { ok: false } {
  return { ok: false, error: `timed out after ${ms} ms`, permanent: false };
}

export function inlineExecutor(thread: ThreadContext): Executor {
  const busy = new Set<Lane>();
  return {
    free: (lane) => (busy.has(lane) ? 0 : 1),
    async run(lane, batch) {
      busy.add(lane);
      const settle = new Map<ClaimedJob, (outcome: Outcome) => void>();
      const timers: ReturnType<typeof setTimeout>[] = [];
      // Each job's outcome is whichever comes first: its handler's, or its time limit's. A handler on the main
      // thread cannot be interrupted: past its limit it is left to finish on its own while the job is recorded
      // as failed (it is idempotent, so the retry is harmless).
      const outcomes = batch.map((job) => new Promise<Outcome>((resolve) => {
        settle.set(job, resolve);
        const ms = thread.registry.timeoutMs(job.type);
        timers.push(setTimeout(() => resolve(timedOut(ms)), ms));
      }));
      void runBatch(thread, batch, (job, outcome) => settle.get(job)!(outcome));
      try {
        return await Promise.all(outcomes);
      } finally {
        for (const timer of timers) clearTimeout(timer);
        busy.delete(lane);
      }
    },
    close: async () => {},
  };
}
