// Runs a batch of claimed jobs in the current thread (the main thread, or a worker): all of them at once,
// so the writes they make in the same turn share one LMDB commit and their waits on the network overlap.
// Jobs of a type with a batch handler (fan-out) run through it together, one call at a time per thread (see
// gather). Each job's outcome is reported as soon as it is known.
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import type { BatchJobHandler, JobContext } from "./registry.ts";
import type { JobEnqueuer, JobEvent } from "./queue.ts";
import { runBatchHandler, runHandler, type Outcome, type Registry } from "./registry.ts";
import type { ClaimedJob } from "../model/jobs.ts";

export interface ThreadContext {
  store: Store;
  config: Config;
  registry: Registry;
  jobs: JobEnqueuer;
  emit(event: JobEvent): void;
}

type Report = (job: ClaimedJob, outcome: Outcome) => void;

interface Waiting {
  job: ClaimedJob;
  report: Report;
}

/** A batch handler's call running in this thread, and the jobs waiting for its next call. */
interface Call {
  waiting: Waiting[];
  /** Past this the call has overrun its jobs' time limit (inline, it cannot be stopped): do not wait for it. */
  overdueAt: number;
}

const calls = new WeakMap<ThreadContext, Map<BatchJobHandler, Call>>();

export function runBatch(thread: ThreadContext, batch: ClaimedJob[], report: Report): void {
  // lmdb-js keeps a thread's read snapshot until a zero-delay timer renews it, and this batch's message may
  // be handled before that timer: without a fresh snapshot a job could read the store as it was before the
  // writes that came ahead of it (a follow request already withdrawn, and its mail sent anyway).
  thread.store.freshSnapshot();
  const together = new Map<BatchJobHandler, Waiting[]>();
  for (const job of batch) {
    // A job that failed before runs alone, through its ordinary handler.
    const handler = job.lastError === null ? thread.registry.batchHandler(job.type) : undefined;
    if (!handler) void runAlone(thread, { job, report });
    else if (together.has(handler)) together.get(handler)!.push({ job, report });
    else together.set(handler, [{ job, report }]);
  }
  for (const [handler, jobs] of together) gather(thread, handler, jobs);
}

async function runAlone(thread: ThreadContext, { job, report }: Waiting): Promise<void> {
  const { store, config, registry, jobs, emit } = thread;
  const ctx: JobContext = { store, config, jobs, emit, job: { id: job.id, type: job.type, attempt: job.attempts } };
  report(job, await runHandler(registry, ctx, job.payload));
}

/**
 * One call of a batch handler at a time per thread, as when a worker ran one batch per lane: jobs of its type
 * that arrive while a call runs wait for it and go into the next call together, so a busy thread merges more
 * (home fan-out writes the rows of all its statuses in a few transactions). Such a call succeeds or fails as
 * a whole.
 */
function gather(thread: ThreadContext, handler: BatchJobHandler, jobs: Waiting[]): void {
  let running = calls.get(thread);
  if (!running) calls.set(thread, (running = new Map()));
  const current = running.get(handler);
  if (current && Date.now() < current.overdueAt) {
    current.waiting.push(...jobs);
    return;
  }
  const call: Call = { waiting: [], overdueAt: 0 };
  running.set(handler, call);
  void (async () => {
    try {
      for (let next = jobs; next.length > 0; next = call.waiting.splice(0)) {
        call.overdueAt = Date.now() + Math.min(...next.map(({ job }) => thread.registry.timeoutMs(job.type)));
        if (next.length === 1) {
          await runAlone(thread, next[0]!);
          continue;
        }
        const { store, config, jobs: enqueuer, emit } = thread;
        store.freshSnapshot();
        const outcome = await runBatchHandler(handler, { store, config, jobs: enqueuer, emit }, next.map(({ job }) => job.payload));
        for (const { job, report } of next) report(job, outcome);
      }
    } finally {
      if (running.get(handler) === call) running.delete(handler);
    }
  })();
}
