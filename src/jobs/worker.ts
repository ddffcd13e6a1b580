// A job worker thread (started by pool.ts through the composition root's entry, src/job-worker.ts, which
// hands it the same job table as the main thread's). It opens its own handle on the same LMDB environment,
// loads the same handler registry as the main thread, and runs the batches it is sent, several at once; the
// main thread records outcomes.
import type { Config } from "../config.ts";
import { openStore } from "../store/db.ts";
import { runBatch, type ThreadContext } from "./batch.ts";
import type { FromWorker, ToWorker } from "./pool.ts";
import { committedEnqueuer } from "./queue.ts";
import { errorText, loadRegistry, type JobTable, type Outcome } from "./registry.ts";

declare const self: Worker;

let ready: Promise<ThreadContext> | null = null;

const post = (message: FromWorker) => self.postMessage(message);

// Outcomes known in the same turn (jobs whose writes shared a commit, a batch handler's jobs) go in one
// message, so the main thread records them in one write.
const finished: Array<{ jobId: string; outcome: Outcome }> = [];
function report(jobId: string, outcome: Outcome): void {
  if (finished.length === 0) setImmediate(() => post({ kind: "done", finished: finished.splice(0) }));
  finished.push({ jobId, outcome });
}

async function init(table: JobTable, config: Config): Promise<ThreadContext> {
  const store = openStore(config.dataDir, { migrate: false });
  const registry = await loadRegistry(table, config.jobHandlerModules);
  // Jobs enqueued here wake the main thread's runner once their write has committed.
  const jobs = committedEnqueuer(store, registry.lane, () => post({ kind: "wake" }));
  return { store, config, registry, jobs, emit: (event) => post({ kind: "event", event }) };
}

/** Serves the pool's messages in this worker thread, with the jobs of `table`. */
export function serveJobWorker(table: JobTable): void {
  self.onmessage = (event: MessageEvent<ToWorker>) => receive(table, event.data);
}

async function receive(table: JobTable, message: ToWorker): Promise<void> {
  switch (message.kind) {
    case "init":
      ready = init(table, message.config);
      try {
        await ready;
        post({ kind: "ready" });
      } catch (error) {
        post({ kind: "init-failed", error: errorText(error) });
      }
      return;
    case "run":
      runBatch(await ready!, message.jobs, (job, outcome) => report(job.id, outcome));
      return;
    case "close":
      await ready?.then(({ store }) => store.close(), () => {});
      post({ kind: "closed" });
      return;
  }
}
