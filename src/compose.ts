// The composition root of the job queue: it gives src/jobs (infrastructure, which knows no job type) the
// handler table built from src/reactions, and starts worker threads whose entry (job-worker.ts) builds the
// same table. Every process that records events opens its queue here, which also registers the subscribers.
import type { Config } from "./config.ts";
import type { Store } from "./store/db.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { JobTable } from "./jobs/registry.ts";
import { createJobQueue, type RunnerOptions } from "./jobs/runner.ts";
import { extraJobs, reactionJobs } from "./reactions/index.ts";
import { wireFederation } from "./federation/thread-federation.ts";
import { idThreadTagData } from "./lib/ids.ts";

// Modules that send or fetch outside a request reach this thread's federation through this (loaded on first use).
wireFederation(() => import("./federation/index.ts"));

let table: JobTable | null = null;

/** The job table of this thread (built once: building it registers the subscribers). */
export function jobTable(): JobTable {
  table ??= {
    builtIn: reactionJobs(),
    extra: extraJobs,
    // The worker file sits next to this one: the single executable resolves it the same way (scripts/worker-entries.ts).
    // Bun passes `workerData` to node:worker_threads' workerData, though its Worker options type lacks it.
    spawnWorker: (idTag) => new Worker(new URL("./job-worker.ts", import.meta.url), { workerData: idThreadTagData(idTag) } as Bun.WorkerOptions),
  };
  return table;
}

/** The durable job queue of `store`, running the built-in job types and the configured extra modules. */
export function openJobQueue(store: Store, config: Config, options: RunnerOptions = {}): JobQueue {
  return createJobQueue(store, config, jobTable(), options);
}
