// Makes a backup of a data directory that may be in use: one compacted LMDB snapshot (writers go on), then
// the media files and waiting uploads, then the manifest. Media in an S3 bucket are not copied: the manifest
// names the bucket (the bucket's own versioning or replication is its backup: docs/operations.md). See guard.ts for why no file the snapshot refers to
// can be deleted before it is copied.
import { processAlive } from "../lib/process-alive.ts";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Store } from "../store/db.ts";
import { copySizeBound, DATABASE_FILE, summariseDatabase } from "../store/backup.ts";
import { REPORTED_VERSION, WARREN_VERSION } from "../lib/version.ts";
import { BACKUP_MARKER, SET_ASIDE_DIR } from "./guard.ts";
import { copyDataFile, eachLimited, FILE_TREES, filesToBackUp } from "./files.ts";
import { MANIFEST_KIND, sha256File, writeManifest, type BackupFile, type BackupManifest, type MediaBucket } from "./manifest.ts";

/** What cannot be backed up, said so that the operator knows what to do. */
export class BackupError extends Error {}

export interface ProgressReporter {
  update(done: number, total: number): void;
  finish(): void;
}

export interface BackupOptions {
  /**
   * "copy": an independent copy with every file's SHA-256 (`warren backup`); "link": hard links of the media
   * files, which never change once written, and a checksum of the database only (the safety snapshot taken
   * before an upgrade, inside the data directory).
   */
  media: "copy" | "link";
  /** A progress reporter per step ("database", "media"); none by default. */
  progress?: (step: string) => ProgressReporter;
  /** The bucket the media live in (config.s3), if they do: the backup records it and copies no media file. */
  mediaBucket?: MediaBucket | null;
  /** Awaited between the database copy and the listing of files: where deletions race the backup (tests use it). */
  afterSnapshot?: () => Promise<void>;
}

const QUIET: ProgressReporter = { update() {}, finish() {} };

/** `target` must not exist or be empty: a backup never mixes with other files. */
async function prepareTarget(target: string): Promise<void> {
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new BackupError(`${target} is not empty: give a new or empty directory (e.g. one named after the date)`);
  }
  await mkdir(target, { recursive: true });
}

/** Puts up the marker (after clearing what a backup that died left), refusing if another backup runs. */
async function beginGuard(dataDir: string): Promise<void> {
  const marker = join(dataDir, BACKUP_MARKER);
  const previous = await readFile(marker, "utf8").catch(() => null);
  if (previous !== null) {
    const pid = Number(/pid (\d+)/.exec(previous)?.[1]);
    if (pid && pid !== process.pid && processAlive(pid)) {
      throw new BackupError(`another backup of ${dataDir} is running (pid ${pid}); wait for it, or remove ${marker} if it is not`);
    }
  }
  // Files set aside under a stale marker were deleted before this backup's snapshot: nothing refers to them.
  await rm(join(dataDir, SET_ASIDE_DIR), { recursive: true, force: true });
  await writeFile(marker, `pid ${process.pid} since ${new Date().toISOString()}\n`);
}

async function endGuard(dataDir: string): Promise<void> {
  await rm(join(dataDir, BACKUP_MARKER), { force: true });
  await rm(join(dataDir, SET_ASIDE_DIR), { recursive: true, force: true });
}

/** The snapshot, with progress from the copy's growing size against the source file's. */
async function copyDatabase(store: Store, target: string, progress: ProgressReporter): Promise<void> {
  const file = join(target, DATABASE_FILE);
  const bound = Math.max(1, copySizeBound(store));
  const timer = setInterval(() => {
    stat(file).then((s) => progress.update(Math.min(s.size, bound), bound), () => {});
  }, 250);
  try {
    await store.copyTo(file);
  } finally {
    clearInterval(timer);
  }
  progress.update(bound, bound);
  progress.finish();
}

async function copyFiles(dataDir: string, target: string, options: BackupOptions, progress: ProgressReporter): Promise<BackupFile[]> {
  const paths = await filesToBackUp(dataDir, options.mediaBucket ? FILE_TREES.filter((tree) => tree !== "media") : FILE_TREES);
  const files: BackupFile[] = [];
  let done = 0;
  progress.update(0, paths.length);
  await eachLimited(paths, 8, async (path) => {
    const size = await copyDataFile(dataDir, path, target, options.media);
    if (size !== null) files.push({ path, size, sha256: options.media === "copy" ? await sha256File(join(target, path)) : null });
    progress.update(++done, paths.length);
  });
  progress.finish();
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Backs up the open store's data directory into `target` (new or empty) and answers the manifest written. */
export async function writeBackup(store: Store, target: string, options: BackupOptions): Promise<BackupManifest> {
  const started = performance.now();
  const progress = options.progress ?? (() => QUIET);
  await prepareTarget(target);
  await beginGuard(store.dir);
  let files: BackupFile[];
  try {
    await copyDatabase(store, target, progress("database"));
    await options.afterSnapshot?.();
    files = await copyFiles(store.dir, target, options, progress("media"));
  } finally {
    await endGuard(store.dir);
  }
  const databaseFile = join(target, DATABASE_FILE);
  const summary = await summariseDatabase(databaseFile);
  const database: BackupFile = { path: DATABASE_FILE, size: (await stat(databaseFile)).size, sha256: await sha256File(databaseFile) };
  const manifest: BackupManifest = {
    kind: MANIFEST_KIND,
    warrenVersion: WARREN_VERSION,
    reportedVersion: REPORTED_VERSION,
    dataFormat: summary.dataFormat,
    createdAt: new Date().toISOString(),
    seconds: Math.round((performance.now() - started) / 10) / 100,
    keyspaces: summary.keyspaces,
    files: [database, ...files],
    ...(options.mediaBucket ? { mediaBucket: options.mediaBucket } : {}),
  };
  await writeManifest(target, manifest);
  return manifest;
}
