// What a backup needs from LMDB besides Store.copyTo: the size a copy will reach (for its progress), and a
// look inside a copied environment file (its data format and entries per keyspace) without changing it.
import { open } from "lmdb";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "./handle.ts";
import { KEYSPACES } from "./keys.ts";

/** The environment's file name inside a data directory (and inside a backup). */
export const DATABASE_FILE = "warren.lmdb";

export interface DatabaseSummary {
  /** meta "schema_version": the data format the copy is at */
  dataFormat: number;
  /** entries per keyspace (its msgpack shared-structures entry included) */
  keyspaces: Record<string, number>;
}

/** An upper bound for the size of a compacted copy: the pages in use, free ones included. */
export function copySizeBound(store: Store): number {
  const file = join(store.dir, DATABASE_FILE);
  return existsSync(file) ? statSync(file).size : 0;
}

/**
 * Opens an environment file read-only and answers its data format and entry counts (each from the
 * B-tree's header: no scan). The lock file LMDB creates next to it is removed afterwards.
 */
export async function summariseDatabase(file: string): Promise<DatabaseSummary> {
  const lockExisted = existsSync(`${file}-lock`);
  const root = open({ path: file, readOnly: true, maxDbs: 128, compression: false });
  try {
    const keyspaces: Record<string, number> = {};
    let dataFormat = 0;
    for (const [name, dbName] of Object.entries(KEYSPACES)) {
      let db;
      try {
        db = root.openDB({ name: dbName, encoding: "msgpack", keyEncoding: "ordered-binary", sharedStructuresKey: Symbol.for("structures") });
      } catch {
        continue; // a keyspace an older format did not have
      }
      keyspaces[name] = (db.getStats() as { entryCount: number }).entryCount;
      if (name === "meta") dataFormat = db.get("schema_version") ?? 0;
    }
    return { dataFormat, keyspaces };
  } finally {
    await root.close();
    if (!lockExisted) rmSync(`${file}-lock`, { force: true });
  }
}
