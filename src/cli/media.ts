// `warren media remove [--days=N] [--dry-run]` (uploads on no status for N days, default 1: what the daily
// clean-up does, for operators who want it now; and the copies of remote media fetched more than N days ago,
// default WARREN_MEDIA_CACHE_DAYS, fetched again when read), `warren media remove-orphans` (stored files no
// record points to, left by a crash between storing and committing), `warren media usage` (bytes by kind) in
// tootctl's words, and `warren media migrate --to=s3|local` (moves stored files between the data directory and
// the WARREN_S3_* bucket: media/migrate.ts). Exit codes: 0 ok, 1 failure, 64 usage.
import type { Deps } from "../deps.ts";
import { removeOrphanFiles, removeUnattachedBefore } from "../domain/media/cleanup.ts";
import { removeRemoteCopies } from "../domain/media/remote-cache.ts";
import { mediaUsage } from "../domain/media/usage.ts";
import { countUnattachedBefore } from "../store/media.ts";
import { migrateMedia } from "../media/migrate.ts";
import { Failure, parseArgs, runSubcommand, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren media remove [--days=N] [--dry-run]   remove uploads on no status for N days (default 1), and copies of
                                              remote media older than N days (default WARREN_MEDIA_CACHE_DAYS);
                                              --dry-run counts the uploads and removes nothing
  warren media remove-orphans                  remove stored media files that no upload refers to
  warren media usage                           bytes stored: local and remote attachments, avatars and headers
  warren media migrate --to=s3|local           move stored media files into the WARREN_S3_* bucket, or back to the data directory
`;

const DAY_MS = 86_400_000;

async function removeCommand(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["days"], ["dry-run"]);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const days = parsed.values.days === undefined ? 1 : Number(parsed.values.days);
  if (!Number.isFinite(days) || days < 0) throw new UsageError("--days needs a number of days, 0 or more");
  const cutoff = Date.now() - days * DAY_MS;
  if (parsed.flags.has("dry-run")) {
    process.stdout.write(`OK, would remove ${countUnattachedBefore(deps.store, cutoff)} unattached media attachments (dry run)\n`);
    return;
  }
  const bar = progressBar("Removing unattached media");
  const removed = await removeUnattachedBefore(deps.store, deps.config, cutoff, bar.update);
  bar.finish();
  process.stdout.write(`OK, removed ${removed} unattached media attachments\n`);
  const remoteDays = parsed.values.days === undefined ? deps.config.mediaCacheDays : days;
  if (remoteDays <= 0 && parsed.values.days === undefined) return;
  const copies = await removeRemoteCopies(deps, Date.now() - remoteDays * DAY_MS);
  // Said only when there were some: an instance that federates with nobody sees the output it always saw.
  if (copies.attachments + copies.accounts > 0) process.stdout.write(`OK, removed the copies of ${copies.attachments} remote media attachments and of ${copies.accounts} remote accounts' avatars and headers\n`);
  if (copies.emojis > 0) process.stdout.write(`OK, removed the copies of ${copies.emojis} remote custom emojis\n`);
}

async function removeOrphansCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError(`unexpected argument: ${args[0]}`);
  const removed = await removeOrphanFiles(deps.store, deps.config);
  process.stdout.write(`OK, removed the files of ${removed} media attachments that no longer exist\n`);
}

async function migrateCommand(deps: Deps, args: string[]): Promise<void> {
  const parsed = parseArgs(args, ["to"], []);
  if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  const to = parsed.values.to;
  if (to !== "s3" && to !== "local") throw new UsageError("--to needs s3 or local");
  if (!deps.config.s3) {
    throw new Failure("media migrate needs object storage configured (WARREN_S3_ENDPOINT, WARREN_S3_BUCKET, WARREN_S3_ACCESS_KEY_ID, WARREN_S3_SECRET_ACCESS_KEY, WARREN_S3_PUBLIC_URL): it moves files between the data directory and that bucket");
  }
  const bar = progressBar(to === "s3" ? "Moving media to the bucket" : "Moving media to the data directory");
  let result;
  try {
    result = (await migrateMedia(deps.config, to, bar.update))!;
  } catch (error) {
    throw new Failure(`media migrate stopped: ${(error as Error).message}; every file is in one place or both, run the command again to finish`);
  }
  bar.finish();
  const megabytes = (result.bytes / 1_048_576).toFixed(1);
  const where = to === "s3" ? `the bucket ${deps.config.s3!.bucket}` : "the data directory";
  const skipped = result.skipped ? ` (${result.skipped} other files left where they are)` : "";
  process.stdout.write(`OK, moved ${result.moved} media files (${megabytes} MB) to ${where}${skipped}\n`);
}

async function usageCommand(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError(`unexpected argument: ${args[0]}`);
  const usage = await mediaUsage(deps.store, deps.config);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  for (const [kind, { files, bytes }] of Object.entries(usage)) process.stdout.write(`${kind}: ${mb(bytes)} in ${files} files\n`);
  const total = Object.values(usage).reduce((sum, u) => sum + u.bytes, 0);
  process.stdout.write(`total: ${mb(total)}\n`);
}

export function runMediaCommand(args: string[]): Promise<number> {
  return runSubcommand("media", USAGE, { remove: removeCommand, "remove-orphans": removeOrphansCommand, usage: usageCommand, migrate: migrateCommand }, args);
}
