// Runs one batch of claimed jobs in the current thread (the main thread, or a worker): all of them at once,
// so the writes they make in the same turn share one LMDB commit and their waits on the network overlap.
// Each job's outcome is reported as soon as it is known.
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import type { ClaimedJob } from "../store/jobs.ts";
import type { JobContext } from "./handlers/index.ts";
import type { JobEnqueuer, JobEvent } from "./queue.ts";
import { runHandler, type Outcome, type Registry } from "./registry.ts";

export interface ThreadContext {
  store: Store;
  config: Config;
  registry: Registry;
  jobs: JobEnqueuer;
  emit(event: JobEvent): void;
}

export async function runBatch(thread: ThreadContext, batch: ClaimedJob[], report: (job: ClaimedJob, outcome: Outcome) => void): Promise<void> {
  const { store, config, registry, jobs, emit } = thread;
  await Promise.all(
    batch.map(async (job) => {
      const ctx: JobContext = { store, config, jobs, emit, job: { id: job.id, type: job.type, attempt: job.attempts } };
      report(job, await runHandler(registry, ctx, job.payload));
    }),
  );
}
