// Uploads waiting for their processing job (video, gifv, audio), and scratch folders for that processing.
// Both live in the data directory, outside the published media folder, so nothing here is ever served, and
// on the same filesystem, so a finished file is moved into storage by a rename (storage.ts adoptMediaFile).
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { removeStoredFile } from "../backup/guard.ts";

const incomingRoot = (config: Config) => join(config.dataDir, "incoming");
const scratchRoot = (config: Config) => join(config.dataDir, "tmp");

/** Only names we made: the media id, random hex and an extension. */
const INCOMING_NAME = /^(\d+)-[0-9a-f]{32}\.[a-z0-9]+$/;

/** Writes an upload durably and answers its name (kept on the media record until processed). */
export async function saveIncoming(config: Config, mediaId: string, upload: Blob, extension: string): Promise<string> {
  const root = incomingRoot(config);
  await mkdir(root, { recursive: true });
  const name = `${mediaId}-${randomBytes(16).toString("hex")}.${extension}`;
  const path = join(root, name);
  await Bun.write(path, upload);
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return name;
}

/** The file behind a name from saveIncoming; throws for anything else. */
export function incomingPath(config: Config, name: string): string {
  if (!INCOMING_NAME.test(name)) throw new Error(`not an incoming upload: ${name}`);
  return join(incomingRoot(config), name);
}

/** Deletes a waiting upload (set aside while a backup runs: backup/guard.ts), best effort. */
export async function removeIncoming(config: Config, name: string): Promise<void> {
  await removeStoredFile(config.dataDir, incomingPath(config, name)).catch(() => {});
}

/** Every waiting upload's name with the media id it was saved for. */
export async function incomingFiles(config: Config): Promise<{ name: string; mediaId: string }[]> {
  const names = await readdir(incomingRoot(config)).catch(() => [] as string[]);
  return names.flatMap((name) => {
    const match = INCOMING_NAME.exec(name);
    return match ? [{ name, mediaId: match[1]! }] : [];
  });
}

/** Runs `fn` with a fresh scratch folder, removed afterwards whatever happens. */
export async function withScratchFolder<T>(config: Config, fn: (dir: string) => Promise<T>): Promise<T> {
  await mkdir(scratchRoot(config), { recursive: true });
  const dir = await mkdtemp(join(scratchRoot(config), "media-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
