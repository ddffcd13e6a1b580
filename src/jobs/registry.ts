// The handlers one thread runs: the table the composition root gives the queue (src/compose.ts) plus the
// modules named in config.jobHandlerModules. Loaded the same way on the main thread and in each worker (whose
// entry builds the same table), so both agree on types and time limits. This module knows no job type: every
// one comes from the table.
import { pathToFileURL } from "node:url";
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { DEFAULT_LANE, isLane, type Lane } from "./lanes.ts";
import type { JobEnqueuer, JobEvent } from "./queue.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface JobContext {
  store: Store;
  config: Config;
  /** Follow-up jobs, inside a `store.write` like everywhere else. */
  jobs: JobEnqueuer;
  /** Raises an event for listeners on the main thread (`jobs.onEvent`), e.g. for streaming. */
  emit(event: JobEvent): void;
  /** The job being run; `attempt` is 1 on the first try. */
  job: { id: string; type: string; attempt: number };
}

export type JobHandler = (ctx: JobContext, payload: any) => void | Promise<void>;
/** Runs several jobs of one type as one (see docs/jobs.md, batches): the context of no job in particular. */
export type BatchJobHandler = (ctx: Omit<JobContext, "job">, payloads: any[]) => void | Promise<void>;

/** Job types with their handlers: the built-in table, or one made from a WARREN_JOB_HANDLERS_EXTRA module. */
export interface JobHandlerModule {
  handlers: Record<string, JobHandler>;
  /** Types whose jobs in one batch run together through one call; each still needs its `handlers` entry. */
  batchHandlers?: Record<string, BatchJobHandler>;
  /** Per-type time limits in ms; a job running longer counts as failed (default 60 s). */
  timeoutsMs?: Record<string, number>;
  /** Per-type lanes (src/jobs/lanes.ts); a type not listed runs in `default`. An enqueue may name another. */
  lanes?: Record<string, Lane>;
}

/** What the composition root gives the job queue (src/compose.ts builds it from src/reactions). */
export interface JobTable {
  /** The built-in job types, known from the start: enqueues before the registry has loaded take their lanes. */
  builtIn: JobHandlerModule;
  /** The job types a WARREN_JOB_HANDLERS_EXTRA module brings (it may list event subscribers as well as handlers). */
  extra(module: unknown): JobHandlerModule[];
  /** Starts a job worker thread, whose entry builds this same table; `idTag` goes to lib/ids.ts as its workerData. */
  spawnWorker(idTag: number): Worker;
}

export interface Registry {
  handler(type: string): JobHandler | undefined;
  /** The handler that runs a batch's jobs of this type together, if the type has one. */
  batchHandler(type: string): BatchJobHandler | undefined;
  timeoutMs(type: string): number;
  lane(type: string): Lane;
}

/**
 * How a job went. `uncounted`: it was stopped through no fault of its own (shutdown, or a batch-mate that
 * overran its time limit took the worker down), so it goes back to the queue due now, the attempt not counted.
 */
export type Outcome = { ok: true } | { ok: false; error: string; permanent: boolean; uncounted?: boolean };

/** The lane of a built-in job type, for enqueues before the registry is loaded. */
export function builtInLane(table: JobTable, type: string): Lane {
  return table.builtIn.lanes?.[type] ?? DEFAULT_LANE;
}

export async function loadRegistry(table: JobTable, extraModules: string[], defaultTimeoutMs = DEFAULT_TIMEOUT_MS): Promise<Registry> {
  const handlers = new Map<string, JobHandler>();
  const batchHandlers = new Map<string, BatchJobHandler>();
  const timeouts = new Map<string, number>();
  const lanes = new Map<string, Lane>();
  const add = (module: JobHandlerModule, from: string) => {
    if (!module.handlers || typeof module.handlers !== "object") throw new Error(`${from} does not export handlers`);
    for (const [type, handler] of Object.entries(module.handlers)) {
      if (handlers.has(type)) throw new Error(`job type ${type} from ${from} is already registered`);
      handlers.set(type, handler);
    }
    for (const [type, handler] of Object.entries(module.batchHandlers ?? {})) {
      if (!module.handlers[type]) throw new Error(`${from} has a batch handler but no handler for job type ${type}`);
      batchHandlers.set(type, handler);
    }
    for (const [type, ms] of Object.entries(module.timeoutsMs ?? {})) timeouts.set(type, ms);
    for (const [type, lane] of Object.entries(module.lanes ?? {})) {
      if (!isLane(lane)) throw new Error(`${from} puts job type ${type} in an unknown lane ${lane}`);
      lanes.set(type, lane);
    }
  };
  add(table.builtIn, "the built-in job table");
  for (const path of extraModules) for (const module of table.extra(await import(pathToFileURL(path).href))) add(module, path);
  return {
    handler: (type) => handlers.get(type),
    batchHandler: (type) => batchHandlers.get(type),
    timeoutMs: (type) => timeouts.get(type) ?? defaultTimeoutMs,
    lane: (type) => lanes.get(type) ?? DEFAULT_LANE,
  };
}

/** Runs one job's handler and reports how it went; never throws. An unknown type cannot succeed later. */
export async function runHandler(registry: Registry, ctx: JobContext, payload: unknown): Promise<Outcome> {
  const handler = registry.handler(ctx.job.type);
  if (!handler) return { ok: false, error: `no handler for job type ${ctx.job.type}`, permanent: true };
  try {
    await handler(ctx, payload);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: errorText(error), permanent: false };
  }
}

/** Runs the jobs of one type through its batch handler; one outcome for all of them. Never throws. */
export async function runBatchHandler(handler: BatchJobHandler, ctx: Omit<JobContext, "job">, payloads: unknown[]): Promise<Outcome> {
  try {
    await handler(ctx, payloads);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: errorText(error), permanent: false };
  }
}

export function errorText(error: unknown): string {
  return String((error as Error)?.message ?? error).slice(0, 2000);
}
