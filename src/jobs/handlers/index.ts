// Job type → handler. Handlers are idempotent: after a crash a job may run twice.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";

export interface JobContext {
  store: Store;
  config: Config;
}

export type JobHandler = (ctx: JobContext, payload: any) => void | Promise<void>;

export const HANDLERS: Record<string, JobHandler> = {
  /** Does nothing; used by tests and benchmarks of the queue itself. */
  noop: () => {},
};
