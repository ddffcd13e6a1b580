// `warren media remove [--days=N]` (uploads on no status for N days, default 1: what the daily clean-up
// does, for operators who want it now; and the copies of remote media fetched more than N days ago, default
// WARREN_MEDIA_CACHE_DAYS, fetched again when read), `warren media remove-orphans` (stored files no record
// points to, left by a crash between storing and committing) and `warren media usage` (bytes by kind), in
// tootctl's words. Exit codes: 0 ok, 64 usage.
import type { Deps } from "../deps.ts";
import { removeOrphanFiles, removeUnattachedBefore } from "../domain/media/cleanup.ts";
import { removeRemoteCopies } from "../domain/media/remote-cache.ts";
import { mediaUsage } from "../domain/media/usage.ts";
import { parseArgs, runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren media remove [--days=N]      remove uploads on no status for N days (default 1), and copies of
                                      remote media older than N days (default WARREN_MEDIA_CACHE_DAYS)
  warren media remove-orphans         remove stored media files that no upload refers to
  warren media usage                  bytes stored: local and remote attachments, avatars and headers
`;

const DAY_MS = 86_400_000;

async function removeCommand(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["days"], []);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const days = parsed.values.days === undefined ? 1 : Number(parsed.values.days);
  if (!Number.isFinite(days) || days < 0) throw new UsageError("--days needs a number of days, 0 or more");
  const bar = progressBar("Removing unattached media");
  const removed = await removeUnattachedBefore(deps.store, deps.config, Date.now() - days * DAY_MS, bar.update);
  bar.finish();
  process.stdout.write(`OK, removed ${removed} unattached media attachments\n`);
  const remoteDays = parsed.values.days === undefined ? deps.config.mediaCacheDays : days;
  if (remoteDays <= 0 && parsed.values.days === undefined) return;
  const copies = await removeRemoteCopies(deps, Date.now() - remoteDays * DAY_MS);
  // Said only when there were some: an instance that federates with nobody sees the output it always saw.
  if (copies.attachments + copies.accounts > 0) process.stdout.write(`OK, removed the copies of ${copies.attachments} remote media attachments and of ${copies.accounts} remote accounts' avatars and headers\n`);
}

async function usageCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError(`unexpected argument: ${args[0]}`);
  const usage = await mediaUsage(deps.store, deps.config);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  for (const [kind, { files, bytes }] of Object.entries(usage)) process.stdout.write(`${kind}: ${mb(bytes)} in ${files} files\n`);
  const total = Object.values(usage).reduce((sum, u) => sum + u.bytes, 0);
  process.stdout.write(`total: ${mb(total)}\n`);
}

async function removeOrphansCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError(`unexpected argument: ${args[0]}`);
  const removed = await removeOrphanFiles(deps.store, deps.config);
  process.stdout.write(`OK, removed the files of ${removed} media attachments that no longer exist\n`);
}

export function runMediaCommand(args: string[]): Promise<number> {
  return runSubcommand("media", USAGE, { remove: removeCommand, "remove-orphans": removeOrphansCommand, usage: usageCommand }, args);
}
