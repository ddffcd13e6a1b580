// `warren media migrate --to=s3|local`: moves every stored media file between the data directory
// (`<dataDir>/media`) and the configured bucket. Records keep `/system/<key>` paths, so none changes: only
// the files move, and the API's URLs follow the configuration the server runs with. Each file is copied,
// checked (the copy's size), then deleted at its source, so an interrupted run leaves every file in one
// place or both, and running the command again finishes the move. Waiting uploads (incoming/) stay local:
// they are the processing jobs' scratch copies, never published.
import type { Config } from "../config.ts";
import { eachLimited } from "../backup/files.ts";
import { contentTypeOf, MEDIA_URL_PREFIX, mediaKey } from "./storage.ts";
import { bothStores } from "./store.ts";
import type { MediaStore } from "./media-store.ts";

export type MigrationTarget = "s3" | "local";

export interface MigrationResult {
  moved: number;
  bytes: number;
  /** Keys at the source that are not media Warren writes (left where they are). */
  skipped: number;
}

/** Several transfers at once: each is mostly waiting on the network. */
const WIDTH = 4;

async function moveOne(from: MediaStore, to: MediaStore, key: string): Promise<number> {
  const data = await from.read(key);
  if (data === null) return 0; // deleted meanwhile
  await to.write(key, data, contentTypeOf(key)!);
  const copy = await to.stat(key);
  if (copy?.size !== data.byteLength) throw new Error(`the copy of ${key} has ${copy?.size ?? "no"} bytes, not ${data.byteLength}`);
  await from.delete(key);
  return data.byteLength;
}

/**
 * Moves every media file to `to` (null when no bucket is configured: there is nowhere to move between).
 * `onProgress` hears how many files are done of how many.
 */
export async function migrateMedia(config: Config, to: MigrationTarget, onProgress?: (done: number, total: number) => void): Promise<MigrationResult | null> {
  const stores = bothStores(config);
  if (!stores) return null;
  const [from, target] = to === "s3" ? [stores.local, stores.s3] : [stores.s3, stores.local];
  const keys: string[] = [];
  let skipped = 0;
  for await (const { key } of from.list("")) {
    if (mediaKey(MEDIA_URL_PREFIX + key)?.key === key) keys.push(key);
    else skipped++;
  }
  const result: MigrationResult = { moved: 0, bytes: 0, skipped };
  onProgress?.(0, keys.length);
  await eachLimited(keys, WIDTH, async (key) => {
    result.bytes += await moveOne(from, target, key);
    onProgress?.(++result.moved, keys.length);
  });
  return result;
}
