// What the HTTP layer, the CLI and the job handlers are built from. Tests build one per data directory.
import type { Config } from "./config.ts";
import type { Store } from "./store/db.ts";
import type { JobQueue } from "./jobs/queue.ts";

export interface Deps {
  config: Config;
  store: Store;
  jobs: JobQueue;
}
