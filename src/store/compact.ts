// `warren compact` (docs/disk.md): a copy of the environment without its free pages and with every B-tree
// rewritten in key order, swapped in for the original while no server runs on the data directory.
//
// LMDB never gives pages back to the file system: pages freed by later writes go on its free list, and a
// copy (mdb_env_copy with MDB_CP_COMPACT, lmdb-js `backup(path, true)`) leaves them out but keeps each page as
// it is. Pages split by inserts in the middle of a key range (a notification or a follow lands at the end of its
// owner's run, not at the end of the tree) stay about two-thirds full. The repacked copy writes each keyspace's
// entries in key order with MDB_APPEND (duplicates in order, see copyKeyspace), so each page is filled before
// the next one starts. Raw bytes are copied: the stored format does not change.
import { open, type RootDatabase } from "lmdb";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { KEYSPACE_OPTIONS, KEYSPACES, type KeyspaceName } from "./keys.ts";

export const LMDB_FILE = "warren.lmdb";

export interface CompactResult {
  beforeBytes: number;
  afterBytes: number;
  entries: number;
}

const entryCount = (db: { getStats(): unknown }) => (db.getStats() as { entryCount: number }).entryCount;
const dupOptions = (name: KeyspaceName) => KEYSPACE_OPTIONS[name] as { dupSort?: boolean; dupFixed?: boolean } | undefined;
const isDupSort = (name: KeyspaceName) => dupOptions(name)?.dupSort ?? false;
// The copy's sub-databases are created with these flags (LMDB keeps a sub-database's flags from its creation
// on): a keyspace of fixed-size duplicates must stay MDB_DUPFIXED, or its rows take a node header each again.
const rawOptions = (name: KeyspaceName) =>
  ({ name: KEYSPACES[name], encoding: "binary", keyEncoding: "binary", dupSort: isDupSort(name), dupFixed: dupOptions(name)?.dupFixed ?? false }) as const;
// Same as db.ts: set per open.
const ENV_OPTIONS = { maxDbs: 128, mapSize: 2 ** 36, compression: false } as const;
/** Entries per write transaction of the copy. */
const BATCH = 50_000;

/**
 * Rewrites the environment of `dir` compacted and repacked, then swaps it in. The caller makes sure no other
 * process has it open (server-lock.ts). `onProgress` hears entries copied and the total.
 */
export async function compactEnvironment(dir: string, onProgress: (done: number, total: number) => void): Promise<CompactResult> {
  const path = join(dir, LMDB_FILE);
  const target = join(dir, `${LMDB_FILE}.compacting`);
  rmSync(target, { force: true });
  rmSync(`${target}-lock`, { force: true });
  const beforeBytes = statSync(path).size;
  const source = open({ path, readOnly: true, ...ENV_OPTIONS });
  const copy = open({ path: target, ...ENV_OPTIONS });
  let entries = 0;
  try {
    const names = Object.keys(KEYSPACES) as KeyspaceName[];
    const total = names.reduce((sum, name) => sum + entryCount(source.openDB(rawOptions(name))), 0);
    for (const name of names) entries = await copyKeyspace(source, copy, name, entries, (done) => onProgress(done, total));
    await copy.flushed;
  } catch (error) {
    await copy.close();
    await source.close();
    rmSync(target, { force: true });
    rmSync(`${target}-lock`, { force: true });
    throw error;
  }
  await copy.close();
  await source.close();
  // The copy replaces the original in one rename; its lock file goes (the original's is reset by the next open).
  renameSync(target, path);
  rmSync(`${target}-lock`, { force: true });
  return { beforeBytes, afterBytes: statSync(path).size, entries };
}

/** Copies one keyspace in key order, appending. Returns the running count of entries copied. */
async function copyKeyspace(source: RootDatabase, copy: RootDatabase, name: KeyspaceName, done: number, onProgress: (done: number) => void): Promise<number> {
  const from = source.openDB(rawOptions(name));
  const to = copy.openDB(rawOptions(name));
  const dupSort = isDupSort(name);
  // lmdb-js takes put options in place of a version; its types know only the version.
  const putWith = to.put.bind(to) as unknown as (key: Buffer, value: Buffer, options: object) => boolean;
  let batch: CopiedRow[] = [];
  let lastKey: Buffer | null = null;
  const flush = async () => {
    const rows = batch;
    batch = [];
    // MDB_APPEND refuses a key equal to the last one: a further duplicate of the same key is put without it.
    // (lmdb-js's put reads no `appendDup`, so MDB_APPENDDUP never reaches LMDB. Duplicates still arrive in
    // order, and LMDB splits a full page of variable-size duplicates near its end, so those pages fill; a page
    // of MDB_DUPFIXED duplicates is always split in halves: see fillingOrder.)
    await to.transaction(() => {
      for (const { key, value, sameKey } of rows) putWith(key, value, sameKey ? IN_ORDER : APPEND);
    });
    onProgress(done);
  };
  // The duplicates of one key of an MDB_DUPFIXED keyspace, gathered to be put in fillingOrder.
  const dupFixed = dupOptions(name)?.dupFixed ?? false;
  let run: CopiedRow[] = [];
  const endRun = async () => {
    batch.push(...fillingOrder(run));
    run = [];
    if (batch.length >= BATCH) await flush();
  };
  for (const { key, value } of from.getRange({})) {
    // The read buffers are reused by the next read: copied before they are kept.
    const keyCopy = Buffer.from(key as Buffer);
    const row = { key: keyCopy, value: Buffer.from(value as Buffer), sameKey: dupSort && lastKey !== null && lastKey.equals(keyCopy) };
    lastKey = keyCopy;
    done++;
    if (dupFixed) {
      if (!row.sameKey && run.length) await endRun();
      run.push(row);
    } else {
      batch.push(row);
      if (batch.length >= BATCH) await flush();
    }
  }
  if (run.length) await endRun();
  if (batch.length) await flush();
  const copied = entryCount(to);
  const expected = entryCount(from);
  if (copied !== expected) throw new Error(`compact: ${name} holds ${copied} entries in the copy, ${expected} in the original; the original is kept`);
  return done;
}

interface CopiedRow {
  key: Buffer;
  value: Buffer;
  sameKey: boolean;
}

/**
 * The order in which the duplicates of one key of an MDB_DUPFIXED keyspace are put. LMDB splits a full page
 * of fixed-size duplicates in halves (without MDB_APPENDDUP, which lmdb-js cannot pass), so duplicates put in
 * order leave every page half full. Put first a little over half of them (every other one, and one more in
 * 50), in order: each page is left holding half its capacity, spread over the range of ~1.92 times as many
 * duplicates; the rest, put next, land between them and fill each page to ~96% without splitting it
 * (search_postings 16.2 → 8.5 bytes a posting in a run of 50,000, docs/disk.md). The first stays first: it is the key's
 * one put with MDB_APPEND.
 */
function fillingOrder(run: CopiedRow[]): CopiedRow[] {
  const first = (index: number) => index % 2 === 0 || index % 50 === 1;
  return [...run.filter((_, index) => first(index)), ...run.filter((_, index) => !first(index))];
}

const APPEND = { append: true } as const;
const IN_ORDER = {} as const;

/** Whether a data directory holds an environment at all. */
export function hasEnvironment(dir: string): boolean {
  return existsSync(join(dir, LMDB_FILE));
}
