// What the domain is given (Deps), and what the HTTP layer, the server and the CLI hold (AppDeps). Filled in by
// the composition root (app.ts createDeps, cli/command.ts, the job contexts of src/reactions, the inbox's own
// in federation/index.ts). Tests build one per data directory.
import type { Config } from "./config.ts";
import type { Store } from "./store/db.ts";
import type { JobEnqueuer, JobQueue } from "./jobs/queue.ts";
import type { RemoteLookups } from "./domain/remote.ts";

export interface Deps {
  config: Config;
  store: Store;
  /** Follow-up jobs and events, inside a `store.write`: the job queue, or a worker thread's enqueuer. */
  jobs: JobEnqueuer;
  /** Accounts and statuses of other servers (domain/remote.ts; federation/remote.ts fills it in). */
  remote: RemoteLookups;
}

/** Deps with the job queue itself: started and stopped by the server, listened to by the streams. */
export interface AppDeps extends Deps {
  jobs: JobQueue;
}
