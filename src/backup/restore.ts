// Restores a backup into a new or empty data directory: every file is copied into a temporary folder next
// to it and checked against the manifest (size and SHA-256), the database's data format is checked, and only
// then does the folder take the data directory's name, so a failed restore leaves no half-filled directory.
import { existsSync, readdirSync } from "node:fs";
import { copyFile, mkdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { DATABASE_FILE, summariseDatabase } from "../store/backup.ts";
import { checkDataFormat } from "../store/migrations.ts";
import { eachLimited } from "./files.ts";
import { readManifest, sha256File, type BackupFile, type BackupManifest } from "./manifest.ts";
import { BackupError, type ProgressReporter } from "./write.ts";

function refuseNonEmpty(dataDir: string): void {
  if (!existsSync(dataDir)) return;
  const entries = readdirSync(dataDir);
  if (entries.length > 0) {
    throw new BackupError(`data directory ${dataDir} is not empty (${entries.length} entries): restore fills a new or empty directory; move the old one aside first`);
  }
}

async function copyChecked(from: string, staging: string, file: BackupFile): Promise<void> {
  const source = join(from, file.path);
  const destination = join(staging, file.path);
  await mkdir(dirname(destination), { recursive: true });
  try {
    await copyFile(source, destination);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BackupError(`${source} is missing: the backup is incomplete`);
    throw error;
  }
  const size = (await stat(destination)).size;
  if (size !== file.size) throw new BackupError(`${source} has ${size} bytes, the manifest says ${file.size}: the backup is damaged`);
  if (file.sha256 !== null && (await sha256File(destination)) !== file.sha256) {
    throw new BackupError(`${source} does not match its SHA-256 in the manifest: the backup is damaged`);
  }
}

/** Restores the backup in `from` into `dataDir` and answers its manifest; throws BackupError when refused. */
export async function restoreBackup(from: string, dataDir: string, progress: ProgressReporter): Promise<BackupManifest> {
  const manifest = await readManifest(from);
  if (typeof manifest === "string") throw new BackupError(manifest);
  checkDataFormat(`the backup in ${from}`, manifest.dataFormat);
  if (!manifest.files.some((f) => f.path === DATABASE_FILE)) throw new BackupError(`the backup in ${from} lists no ${DATABASE_FILE}: it is damaged`);
  refuseNonEmpty(dataDir);
  const target = resolve(dataDir);
  const staging = join(dirname(target), `.${basename(target)}.restoring-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const total = manifest.files.reduce((sum, f) => sum + f.size, 0);
    let done = 0;
    progress.update(0, total);
    await eachLimited(manifest.files, 4, async (file) => {
      await copyChecked(from, staging, file);
      progress.update((done += file.size), total);
    });
    progress.finish();
    const { dataFormat } = await summariseDatabase(join(staging, DATABASE_FILE));
    if (dataFormat !== manifest.dataFormat) {
      throw new BackupError(`the database in ${from} has data format ${dataFormat}, the manifest says ${manifest.dataFormat}: the backup is damaged`);
    }
    checkDataFormat(`the backup in ${from}`, dataFormat);
    refuseNonEmpty(dataDir); // again: something may have started writing there meanwhile
    if (existsSync(target)) await rmdir(target);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return manifest;
}
