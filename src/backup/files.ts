// The files of a data directory that a backup holds besides the database: published media (media/) and
// uploads waiting for their processing job (incoming/). Temporaries (dot files) are left out. With media in
// an S3 bucket, media/ is not the media (write.ts records the bucket instead): only incoming/ is copied.
import { constants } from "node:fs";
import { copyFile, link, mkdir, readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { SET_ASIDE_DIR } from "./guard.ts";

export const FILE_TREES = ["media", "incoming"] as const;

/** Relative paths ("/"-separated) of the regular files under `root`'s trees; vanished folders are skipped. */
export async function listTreeFiles(root: string, trees: readonly string[] = FILE_TREES): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string) => {
    let entries;
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch {
      return; // removed (or set aside) while we walked
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(path);
    }
  };
  for (const tree of trees) await walk(tree);
  return out;
}

/**
 * Every file to back up, listed after the database snapshot began: what is in place, then what was set
 * aside during the backup (listed second, so a file moved while the first walk ran is found by one of them).
 */
export async function filesToBackUp(dataDir: string, trees: readonly string[] = FILE_TREES): Promise<string[]> {
  const inPlace = await listTreeFiles(dataDir, trees);
  const setAside = await listTreeFiles(join(dataDir, SET_ASIDE_DIR), trees);
  return [...new Set([...inPlace, ...setAside])].sort();
}

/**
 * Copies (or hard-links) one file of the data directory into `target`, from where it is or, if it was set
 * aside meanwhile, from there. Answers its size, or null if it is in neither place (written and deleted
 * after the snapshot began).
 */
export async function copyDataFile(dataDir: string, path: string, target: string, how: "copy" | "link"): Promise<number | null> {
  const destination = join(target, path);
  await mkdir(dirname(destination), { recursive: true });
  for (const source of [join(dataDir, path), join(dataDir, SET_ASIDE_DIR, path)]) {
    try {
      if (how === "link") await link(source, destination).catch(() => copyFile(source, destination));
      else await copyFile(source, destination, constants.COPYFILE_FICLONE);
      return (await stat(destination)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return null;
}

/** Runs `fn` over `items` with at most `width` at a time. */
export async function eachLimited<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}
