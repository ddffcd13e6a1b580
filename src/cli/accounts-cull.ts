// `warren accounts cull [--dry-run]` (federation/cull.ts): remote accounts whose server says they are gone.
import type { Deps } from "../deps.ts";
import { cullGoneAccounts } from "../federation/cull.ts";
import { parseArgs, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

export async function cull(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, [], ["dry-run"]);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const dryRun = parsed.flags.has("dry-run");
  const bar = progressBar("Asking remote servers");
  const result = await cullGoneAccounts(deps, dryRun, bar.update);
  bar.finish();
  for (const acct of result.gone) process.stdout.write(`${acct}\n`);
  const unreachable = result.unreachable ? `; ${result.unreachable} did not answer and are kept` : "";
  process.stdout.write(
    `OK, ${dryRun ? "would remove" : "removed"} ${result.gone.length} of ${result.checked} remote accounts${unreachable}${dryRun ? " (dry run)" : ""}\n`,
  );
}
