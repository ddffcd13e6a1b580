// Files leaving the data directory while a backup runs. A backup copies one LMDB snapshot, then the media
// files; a job that deletes a file after the snapshot was taken (its record removed in a later commit) could
// otherwise delete a file the snapshot still refers to before the backup copied it. So the backup first
// creates a marker file, then takes its snapshot; every deletion of a stored file (media, waiting uploads)
// checks the marker after its record's removal committed, and while the marker is there it moves the file
// aside under `deleted-during-backup/` (same relative path) instead of deleting it. A file the snapshot
// refers to was removed from the records after the snapshot began, hence after the marker appeared: it is
// either still in place or set aside, and the backup looks in both. The backup deletes what was set aside
// when it ends (and a backup that died is cleaned up by the next one).
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, rmdir, unlink } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Present while a backup runs (holds its pid and start time, for people and for the next backup). */
export const BACKUP_MARKER = ".backup-running";
/** Where deleted files wait, under their path relative to the data directory, until the backup ends. */
export const SET_ASIDE_DIR = "deleted-during-backup";

export function backupRunning(dataDir: string): boolean {
  return existsSync(join(dataDir, BACKUP_MARKER));
}

/** `target` (a file or a folder inside the data directory) moved under SET_ASIDE_DIR, merged with what is there. */
async function setAside(dataDir: string, target: string): Promise<void> {
  const destination = join(dataDir, SET_ASIDE_DIR, relative(dataDir, target));
  await mkdir(dirname(destination), { recursive: true });
  try {
    await rename(target, destination);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !existsSync(target)) return;
    if (code !== "ENOTEMPTY" && code !== "EEXIST" && code !== "EISDIR") throw error;
    // A folder part of which was set aside already: move the rest entry by entry.
    for (const entry of await readdir(target)) await setAside(dataDir, join(target, entry));
    await rmdir(target).catch(() => {});
  }
}

function insideDataDir(dataDir: string, target: string): boolean {
  return resolve(target).startsWith(resolve(dataDir) + sep);
}

/** Deletes a stored file, or sets it aside while a backup runs. ENOENT is not an error. */
export async function removeStoredFile(dataDir: string, file: string): Promise<void> {
  if (backupRunning(dataDir) && insideDataDir(dataDir, file)) return setAside(dataDir, file);
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Deletes a stored folder with everything in it, or sets it aside while a backup runs. */
export async function removeStoredFolder(dataDir: string, folder: string): Promise<void> {
  if (backupRunning(dataDir) && insideDataDir(dataDir, folder)) return setAside(dataDir, folder);
  await rm(folder, { recursive: true, force: true });
}
