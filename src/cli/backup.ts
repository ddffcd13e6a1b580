// `warren backup --to=DIR`: a consistent copy of a data directory, the server may be running (docs/operations.md).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { openStore } from "../store/db.ts";
import { DATABASE_FILE } from "../store/backup.ts";
import { BackupError, writeBackup } from "../backup/write.ts";
import type { BackupManifest } from "../backup/manifest.ts";
import { parseArgs, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

export const BACKUP_USAGE = "usage: warren backup --to=DIR   (DIR new or empty; the server may keep running)\n";

const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function describeBackup(manifest: BackupManifest): string {
  const media = manifest.files.filter((f) => f.path !== DATABASE_FILE);
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
  const count = (name: string) => manifest.keyspaces[name] ?? 0;
  return (
    `${count("statuses")} status entries, ${count("accounts")} account entries, ${count("jobs")} pending jobs, ` +
    `${media.length} media files; ${MiB(bytes)}; data format ${manifest.dataFormat}, Warren ${manifest.warrenVersion}` +
    (manifest.mediaBucket ? `; media are not in the backup: they live in the bucket ${manifest.mediaBucket.bucket} at ${manifest.mediaBucket.endpoint}` : "")
  );
}

export async function runBackupCommand(args: string[]): Promise<number> {
  let to: string;
  try {
    const parsed = parseArgs(args, ["to"], []);
    if (!parsed.values.to || parsed.positional.length > 0) throw new UsageError("give the backup's directory with --to=DIR");
    to = resolve(parsed.values.to);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${BACKUP_USAGE}`);
    return 64;
  }
  const { dataDir, s3 } = loadConfig();
  if (!existsSync(join(dataDir, DATABASE_FILE))) {
    process.stderr.write(`no Warren data in ${dataDir}: set WARREN_DATA_DIR to the data directory to back up\n`);
    return 1;
  }
  const store = openStore(dataDir, { migrate: false });
  try {
    const manifest = await writeBackup(store, to, {
      media: "copy",
      progress: (step) => progressBar(step),
      mediaBucket: s3 ? { endpoint: s3.endpoint, bucket: s3.bucket, publicUrl: s3.publicUrl } : null,
    });
    process.stdout.write(`backed up ${dataDir} into ${to} in ${manifest.seconds.toFixed(2)} s: ${describeBackup(manifest)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    process.stderr.write(`backup failed: ${error.message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
