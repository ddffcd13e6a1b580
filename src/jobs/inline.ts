// Runs jobs one at a time on the main thread (WARREN_JOB_WORKERS=0, as in tests). The pool in pool.ts
// offers the same Executor interface with worker threads.
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import type { ClaimedJob } from "../store/jobs.ts";
import type { EventHub } from "./events.ts";
import type { JobEnqueuer } from "./queue.ts";
import { runHandler, type Outcome, type Registry } from "./registry.ts";

export interface Executor {
  /** How many more jobs it can start right now. */
  free(): number;
  /** Runs one claimed job; a job over `timeoutMs` counts as failed. Never rejects. */
  run(job: ClaimedJob, timeoutMs: number): Promise<Outcome>;
  close(): Promise<void>;
}

export function timedOut(ms: number): Outcome & { ok: false } {
  return { ok: false, error: `timed out after ${ms} ms`, permanent: false };
}

export function inlineExecutor(store: Store, config: Config, registry: Registry, hub: EventHub, jobs: JobEnqueuer): Executor {
  let busy = false;
  return {
    free: () => (busy ? 0 : 1),
    async run(job, timeoutMs) {
      busy = true;
      const ctx = {
        store,
        config,
        jobs,
        emit: (event: Record<string, unknown>) => hub.emit(event),
        job: { id: job.id, type: job.type, attempt: job.attempts },
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A handler on the main thread cannot be interrupted: past its time limit it is left to finish on
      // its own while the job is recorded as failed (it is idempotent, so the retry is harmless).
      const limit = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve(timedOut(timeoutMs)), timeoutMs)));
      try {
        return await Promise.race([runHandler(registry, ctx, job.payload), limit]);
      } finally {
        clearTimeout(timer);
        busy = false;
      }
    },
    close: async () => {},
  };
}
