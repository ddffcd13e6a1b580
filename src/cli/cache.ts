// `warren cache recount statuses|accounts` (tootctl's words): recomputes the stored counters from the rows
// they count, with a progress bar on stderr. Exit codes: 0 ok, 64 usage.
import type { Deps } from "../deps.ts";
import { recount, type RecountTarget } from "../domain/recount.ts";
import { runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren cache recount statuses|accounts
`;

const TARGETS: readonly RecountTarget[] = ["statuses", "accounts"];

async function recountCommand(deps: Deps, args: string[]): Promise<void> {
  const target = args.length === 1 ? TARGETS.find((name) => name === args[0]) : undefined;
  if (!target) throw new UsageError(args.length ? `cannot recount ${args.join(" ")}` : "recount needs statuses or accounts");
  const bar = progressBar(`Recounting ${target}`);
  const result = await recount(deps.store, target, bar.update);
  bar.finish();
  process.stdout.write(`OK, recounted ${result.examined} records (${result.corrected} corrected)\n`);
}

export function runCacheCommand(args: string[]): Promise<number> {
  return runSubcommand("cache", USAGE, { recount: recountCommand }, args);
}
