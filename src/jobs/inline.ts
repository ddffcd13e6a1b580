// Runs jobs on the main thread (WARREN_JOB_WORKERS=0, as in tests), up to a lane's limit of jobs in flight
// (LANE_POLICY[lane].batch), like one worker. The pool in pool.ts offers the same Executor interface with
// worker threads.
import { runBatch, type ThreadContext } from "./batch.ts";
import { intoBatches, LANE_POLICY, type Lane } from "./lanes.ts";
import type { Outcome } from "./registry.ts";
import type { ClaimedJob } from "../model/jobs.ts";

export interface Finished {
  job: ClaimedJob;
  outcome: Outcome;
}

/** Receives the outcomes of jobs as they finish, each job exactly once; those known together come together. */
export type Report = (finished: Finished[]) => void;

export interface Executor {
  /** How many more jobs of `lane` it can take right now. */
  free(lane: Lane): number;
  /** Runs claimed jobs of one lane (at most `free(lane)`); their outcomes go to the executor's Report. */
  run(lane: Lane, jobs: ClaimedJob[]): void;
  close(): Promise<void>;
}

export function timedOut(ms: number): Outcome & { ok: false } {
  return { ok: false, error: `timed out after ${ms} ms`, permanent: false };
}

export function inlineExecutor(thread: ThreadContext, report: Report): Executor {
  const inFlight = new Map<Lane, number>();
  const add = (lane: Lane, n: number) => inFlight.set(lane, (inFlight.get(lane) ?? 0) + n);

  function start(lane: Lane, batch: ClaimedJob[]): void {
    add(lane, batch.length);
    const timers = new Map<ClaimedJob, ReturnType<typeof setTimeout>>();
    // Each job's outcome is whichever comes first: its handler's, or its time limit's. A handler on the main
    // thread cannot be interrupted: past its limit it is left to finish on its own while the job is recorded
    // as failed (it is idempotent, so the retry is harmless).
    const settle = (job: ClaimedJob, outcome: Outcome) => {
      if (!timers.has(job)) return;
      clearTimeout(timers.get(job));
      timers.delete(job);
      add(lane, -1);
      report([{ job, outcome }]);
    };
    for (const job of batch) {
      const ms = thread.registry.timeoutMs(job.type);
      timers.set(job, setTimeout(() => settle(job, timedOut(ms)), ms));
    }
    runBatch(thread, batch, settle);
  }

  return {
    free: (lane) => LANE_POLICY[lane].batch - (inFlight.get(lane) ?? 0),
    run(lane, jobs) {
      for (const batch of intoBatches(jobs, [Infinity])) start(lane, batch.jobs);
    },
    close: async () => {},
  };
}
