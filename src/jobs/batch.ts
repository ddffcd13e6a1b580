// Runs one batch of claimed jobs in the current thread (the main thread, or a worker): all of them at once,
// so the writes they make in the same turn share one LMDB commit and their waits on the network overlap.
// Jobs of a type with a batch handler (fan-out) run through it together, as one. Each job's outcome is
// reported as soon as it is known.
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import type { ClaimedJob } from "../store/jobs.ts";
import type { BatchJobHandler, JobContext } from "./handlers/index.ts";
import type { JobEnqueuer, JobEvent } from "./queue.ts";
import { runBatchHandler, runHandler, type Outcome, type Registry } from "./registry.ts";

export interface ThreadContext {
  store: Store;
  config: Config;
  registry: Registry;
  jobs: JobEnqueuer;
  emit(event: JobEvent): void;
}

export async function runBatch(thread: ThreadContext, batch: ClaimedJob[], report: (job: ClaimedJob, outcome: Outcome) => void): Promise<void> {
  const { store, config, registry, jobs, emit } = thread;
  // lmdb-js keeps a thread's read snapshot until a zero-delay timer renews it, and this batch's message may
  // be handled before that timer: without a fresh snapshot a job could read the store as it was before the
  // writes that came ahead of it (a follow request already withdrawn, and its mail sent anyway).
  store.freshSnapshot();
  const together = new Map<BatchJobHandler, ClaimedJob[]>();
  const alone: ClaimedJob[] = [];
  for (const job of batch) {
    const handler = batch.length > 1 ? registry.batchHandler(job.type) : undefined;
    if (!handler) alone.push(job);
    else if (together.has(handler)) together.get(handler)!.push(job);
    else together.set(handler, [job]);
  }
  await Promise.all([
    ...alone.map(async (job) => {
      const ctx: JobContext = { store, config, jobs, emit, job: { id: job.id, type: job.type, attempt: job.attempts } };
      report(job, await runHandler(registry, ctx, job.payload));
    }),
    ...[...together].map(async ([handler, group]) => {
      const outcome = await runBatchHandler(handler, { store, config, jobs, emit }, group.map((job) => job.payload));
      for (const job of group) report(job, outcome);
    }),
  ]);
}
