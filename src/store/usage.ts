// Where the disk goes (`warren usage`, docs/disk.md): per keyspace its entries, the bytes of its keys and
// values as stored, and the LMDB pages its B-tree holds (branch + leaf + overflow pages × page size). Keys and
// values are counted through a second handle on each sub-database that reads them as raw bytes.
import type { RootDatabase } from "lmdb";
import { statSync } from "node:fs";
import { join } from "node:path";
import { KEYSPACE_OPTIONS, KEYSPACES, type KeyspaceName } from "./keys.ts";
import type { Store } from "./handle.ts";

export interface KeyspaceUsage {
  name: KeyspaceName;
  entries: number;
  keyBytes: number;
  valueBytes: number;
  /** branch + leaf + overflow pages × page size: what the keyspace's B-tree occupies in the file */
  pageBytes: number;
}

export interface EnvironmentUsage {
  keyspaces: KeyspaceUsage[];
  /** the size of the LMDB file */
  fileBytes: number;
  /** pages on LMDB's free list (reused by later writes; given back to the file system by `warren compact`) */
  freeBytes: number;
  pageSize: number;
}

interface DbStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
  free: Pages;
}

/**
 * Entries and pages of each keyspace from LMDB's own statistics (a fraction of a second on any size); with
 * `countBytes`, also the bytes of every key and value (a scan of the whole environment).
 */
export function environmentUsage(store: Store, countBytes: boolean, onKeyspace?: (done: number, total: number) => void): EnvironmentUsage {
  const names = Object.keys(KEYSPACES) as KeyspaceName[];
  const keyspaces: KeyspaceUsage[] = [];
  let stats: DbStats | undefined;
  for (const [index, name] of names.entries()) {
    stats = store.db[name].getStats() as DbStats;
    const pages = pagesOf(stats);
    const bytes = countBytes ? rawBytes(store, name) : { keyBytes: 0, valueBytes: 0 };
    keyspaces.push({ name, entries: stats.entryCount, ...bytes, pageBytes: pages * stats.pageSize });
    onKeyspace?.(index + 1, names.length);
  }
  const pageSize = stats?.pageSize ?? 4096;
  return {
    keyspaces,
    fileBytes: statSync(join(store.dir, "warren.lmdb")).size,
    freeBytes: freeListPages(store, keyspaces.reduce((sum, k) => sum + k.pageBytes, 0) / pageSize) * pageSize,
    pageSize,
  };
}

/** Bytes of every key and value of a keyspace as stored (duplicates of a dupSort keyspace each count their key). */
function rawBytes(store: Store, name: KeyspaceName): { keyBytes: number; valueBytes: number } {
  const dupSort = (KEYSPACE_OPTIONS[name] as { dupSort?: boolean } | undefined)?.dupSort ?? false;
  // Every lmdb-js database can open its environment's other sub-databases; the types say so of the root only.
  const raw = (store.db[name] as unknown as RootDatabase).openDB({ name: KEYSPACES[name], encoding: "binary", keyEncoding: "binary", dupSort });
  let keyBytes = 0;
  let valueBytes = 0;
  for (const { key, value } of raw.getRange({})) {
    keyBytes += (key as Buffer).length;
    valueBytes += (value as Buffer).length;
  }
  return { keyBytes, valueBytes };
}

type Pages = { treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
const pagesOf = (stats: Pages) => stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;

/**
 * Pages below the file's high-water mark that no keyspace's statistics count: LMDB's free list and dupSort sub-trees. Counted
 * as the last page in use, less the two meta pages, the keyspaces' pages, the main database's (the keyspace
 * names) and the free list's own.
 */
function freeListPages(store: Store, keyspacePages: number): number {
  const stats = store.db.meta.getStats() as DbStats & { root: Pages; lastPageNumber: number };
  return Math.max(0, stats.lastPageNumber + 1 - 2 - keyspacePages - pagesOf(stats.root) - pagesOf(stats.free));
}
