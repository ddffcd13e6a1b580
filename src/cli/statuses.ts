// `warren statuses remove [--days=N] [--dry-run]`, in tootctl's words: remote statuses older than N days
// (default 90, as tootctl) that nobody here favourited, bookmarked, reblogged, replied to, quoted or voted
// on, and that mention no one here. Exit codes: 0 ok, 64 usage.
import type { Deps } from "../deps.ts";
import { removeUntouchedRemoteStatuses } from "../domain/statuses/remote-cleanup.ts";
import { parseArgs, runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren statuses remove [--days=N] [--dry-run]   remove remote statuses older than N days (default 90) that
                                                  no local account interacted with; --dry-run only counts them
`;

const DAY_MS = 86_400_000;

async function removeCommand(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["days"], ["dry-run"]);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const days = parsed.values.days === undefined ? 90 : Number(parsed.values.days);
  if (!Number.isFinite(days) || days < 0) throw new UsageError("--days needs a number of days, 0 or more");
  const dryRun = parsed.flags.has("dry-run");
  const bar = progressBar("Examining statuses");
  const matched = await removeUntouchedRemoteStatuses(deps, Date.now() - days * DAY_MS, dryRun, bar.update);
  bar.finish();
  process.stdout.write(dryRun ? `OK, would remove ${matched} remote statuses (dry run)\n` : `OK, removed ${matched} remote statuses\n`);
}

export function runStatusesCommand(args: string[]): Promise<number> {
  return runSubcommand("statuses", USAGE, { remove: removeCommand }, args);
}
