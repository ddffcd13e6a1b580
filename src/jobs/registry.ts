// The handlers one thread runs: the built-in registry plus the modules named in config.jobHandlerModules.
// Loaded the same way on the main thread and in each worker, so both agree on types and time limits.
import { pathToFileURL } from "node:url";
import * as builtIn from "./handlers/index.ts";
import type { JobContext, JobHandler, JobHandlerModule } from "./handlers/index.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface Registry {
  handler(type: string): JobHandler | undefined;
  timeoutMs(type: string): number;
}

export type Outcome = { ok: true } | { ok: false; error: string; permanent: boolean };

export async function loadRegistry(extraModules: string[], defaultTimeoutMs = DEFAULT_TIMEOUT_MS): Promise<Registry> {
  const handlers = new Map<string, JobHandler>();
  const timeouts = new Map<string, number>();
  const add = (module: JobHandlerModule, from: string) => {
    if (!module.handlers || typeof module.handlers !== "object") throw new Error(`${from} does not export handlers`);
    for (const [type, handler] of Object.entries(module.handlers)) {
      if (handlers.has(type)) throw new Error(`job type ${type} from ${from} is already registered`);
      handlers.set(type, handler);
    }
    for (const [type, ms] of Object.entries(module.timeoutsMs ?? {})) timeouts.set(type, ms);
  };
  add(builtIn, "src/jobs/handlers/index.ts");
  for (const path of extraModules) add(await import(pathToFileURL(path).href), path);
  return {
    handler: (type) => handlers.get(type),
    timeoutMs: (type) => timeouts.get(type) ?? defaultTimeoutMs,
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

export function errorText(error: unknown): string {
  return String((error as Error)?.message ?? error).slice(0, 2000);
}
