// A backup's manifest.json: what made it, the data format, entries per keyspace and every file with its size
// and SHA-256. Written last (through a temporary name), so a backup without one is incomplete.
import { createReadStream } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_KIND = "warren-backup";

export interface BackupFile {
  /** relative to the backup (and to the data directory it restores into), with "/" separators */
  path: string;
  size: number;
  /** null for a hard-linked media file of a safety snapshot (see write.ts) */
  sha256: string | null;
}

export interface BackupManifest {
  kind: typeof MANIFEST_KIND;
  /** Warren's version (package.json) and the string the instance reports */
  warrenVersion: string;
  reportedVersion: string;
  dataFormat: number;
  createdAt: string;
  seconds: number;
  keyspaces: Record<string, number>;
  files: BackupFile[];
  /** Set when the media live in an S3 bucket (WARREN_S3_*): they are not in the backup, which names the bucket. */
  mediaBucket?: MediaBucket;
}

/** Where a backup's media are when they are not in it (no secret: the keys stay in the environment). */
export interface MediaBucket {
  endpoint: string;
  bucket: string;
  publicUrl: string;
}

/** SHA-256 of a file, hex, read as a stream. */
export async function sha256File(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hasher.update(chunk as Buffer);
  return hasher.digest("hex");
}

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const temporary = join(dir, `.${MANIFEST_FILE}.tmp`);
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(temporary, join(dir, MANIFEST_FILE));
}

/** The manifest of the backup in `dir`, or an error message saying what is wrong with it. */
export async function readManifest(dir: string): Promise<BackupManifest | string> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), "utf8");
  } catch {
    return `${dir} has no ${MANIFEST_FILE}: it is not a Warren backup, or the backup did not finish`;
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text);
  } catch {
    return `${join(dir, MANIFEST_FILE)} is not valid JSON: the backup is damaged`;
  }
  const valid =
    manifest?.kind === MANIFEST_KIND &&
    Number.isInteger(manifest.dataFormat) &&
    Array.isArray(manifest.files) &&
    manifest.files.every((f) => typeof f?.path === "string" && safeRelativePath(f.path) && Number.isInteger(f.size) && (typeof f.sha256 === "string" || f.sha256 === null));
  return valid ? manifest : `${join(dir, MANIFEST_FILE)} is not a Warren backup manifest (or lists unsafe paths)`;
}

/** A path a backup may hold: relative, "/"-separated, no "..", no empty or dot-only segments. */
export function safeRelativePath(path: string): boolean {
  const segments = path.split("/");
  return path.length > 0 && !path.startsWith("/") && segments.every((s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\") && !s.includes("\0"));
}
