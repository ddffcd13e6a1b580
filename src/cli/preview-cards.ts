// `warren preview_cards remove [--days=N] [--dry-run]`, in tootctl's words: link preview cards fetched more than
// N days ago (default 180, as tootctl) are removed. Exit codes: 0 ok, 64 usage.
import type { Deps } from "../deps.ts";
import { removeCardsFetchedBefore } from "../domain/statuses/card-cleanup.ts";
import { parseArgs, runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren preview_cards remove [--days=N] [--dry-run]   remove link preview cards fetched more than N days ago
                                                       (default 180); --dry-run counts them and removes nothing
`;

const DAY_MS = 86_400_000;

async function removeCommand(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["days"], ["dry-run"]);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const days = parsed.values.days === undefined ? 180 : Number(parsed.values.days);
  if (!Number.isFinite(days) || days < 0) throw new UsageError("--days needs a number of days, 0 or more");
  const dryRun = parsed.flags.has("dry-run");
  const bar = progressBar("Examining preview cards");
  const { matched } = await removeCardsFetchedBefore(deps.store, Date.now() - days * DAY_MS, dryRun, bar.update);
  bar.finish();
  process.stdout.write(dryRun ? `OK, would remove ${matched} preview cards (dry run)\n` : `OK, removed ${matched} preview cards\n`);
}

export function runPreviewCardsCommand(args: string[]): Promise<number> {
  return runSubcommand("preview_cards", USAGE, { remove: removeCommand }, args);
}
