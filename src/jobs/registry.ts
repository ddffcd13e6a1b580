// The handlers one thread runs: the built-in registry plus the modules named in config.jobHandlerModules.
// Loaded the same way on the main thread and in each worker, so both agree on types and time limits.
import { pathToFileURL } from "node:url";
import * as builtIn from "./handlers/index.ts";
import { subscriberJobs, type BatchJobHandler, type JobContext, type JobHandler, type JobHandlerModule } from "./handlers/index.ts";
import { DEFAULT_LANE, isLane, type Lane } from "./lanes.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;

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
export function builtInLane(type: string): Lane {
  return (builtIn as JobHandlerModule).lanes?.[type] ?? DEFAULT_LANE;
}

export async function loadRegistry(extraModules: string[], defaultTimeoutMs = DEFAULT_TIMEOUT_MS): Promise<Registry> {
  const handlers = new Map<string, JobHandler>();
  const batchHandlers = new Map<string, BatchJobHandler>();
  const timeouts = new Map<string, number>();
  const lanes = new Map<string, Lane>();
  const add = (module: JobHandlerModule, from: string) => {
    if (module.subscribers) add(subscriberJobs(module.subscribers), from);
    if (!module.handlers && module.subscribers) return;
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
  add(builtIn, "src/jobs/handlers/index.ts");
  for (const path of extraModules) add(await import(pathToFileURL(path).href), path);
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
