// Entry point of a job worker thread (started by pool.ts; an extra entrypoint of the single executable).
// It opens its own handle on the same LMDB environment, loads the same handler registry as the main
// thread, and runs one job at a time; the main thread records the outcome.
import type { Config } from "../config.ts";
import { openStore, type Store } from "../store/db.ts";
import type { JobContext } from "./handlers/index.ts";
import type { FromWorker, ToWorker } from "./pool.ts";
import { enqueueJob, type JobEnqueuer } from "./queue.ts";
import { errorText, loadRegistry, runHandler, type Registry } from "./registry.ts";

declare const self: Worker;

interface Ready {
  store: Store;
  config: Config;
  registry: Registry;
  jobs: JobEnqueuer;
}

let ready: Promise<Ready> | null = null;

const post = (message: FromWorker) => self.postMessage(message);

async function init(config: Config): Promise<Ready> {
  const store = openStore(config.dataDir, { migrate: false });
  const registry = await loadRegistry(config.jobHandlerModules);
  const jobs: JobEnqueuer = {
    enqueue(type, payload, options) {
      const id = enqueueJob(store, type, payload, options);
      // Once the surrounding write commits, ask the main thread to look for due jobs.
      void store.flushed().then(() => post({ kind: "wake" }), () => {});
      return id;
    },
  };
  return { store, config, registry, jobs };
}

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.kind) {
    case "init":
      ready = init(message.config);
      try {
        await ready;
        post({ kind: "ready" });
      } catch (error) {
        post({ kind: "init-failed", error: errorText(error) });
      }
      return;
    case "run": {
      const { store, config, registry, jobs } = await ready!;
      const job = message.job;
      const ctx: JobContext = {
        store,
        config,
        jobs,
        emit: (jobEvent) => post({ kind: "event", event: jobEvent }),
        job: { id: job.id, type: job.type, attempt: job.attempts },
      };
      post({ kind: "done", jobId: job.id, outcome: await runHandler(registry, ctx, job.payload) });
      return;
    }
    case "close":
      await ready?.then(({ store }) => store.close(), () => {});
      post({ kind: "closed" });
      return;
  }
};
