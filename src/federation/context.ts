// What every federation module is given: the store, the config and the thread's job enqueuer (the same on
// the server's main thread and in a job worker). Types only, so any module may import it without a circle.
import type { Config } from "../config.ts";
import type { Deps } from "../deps.ts";
import type { Store } from "../store/db.ts";
import type { JobEnqueuer } from "../jobs/queue.ts";

export interface FederationDeps {
  store: Store;
  config: Config;
  /** The thread's enqueuer: the server's job queue, or a worker's `ctx.jobs`. */
  jobs: JobEnqueuer;
}

/** The cores take Deps; they only record events and notifications through `jobs.enqueue`, which a worker's
 * enqueuer has too. */
export const asDeps = (deps: FederationDeps) => deps as unknown as Deps;
