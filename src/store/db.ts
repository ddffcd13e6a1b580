// The one LMDB environment. Only src/store/ imports lmdb: everything else sees typed functions.
import { open, type Database, type RootDatabase } from "lmdb";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { boundKeys } from "./key-bounds.ts";
import { STRUCTURES_KEY, type Keyspaces, type Store } from "./handle.ts";
import { KEYSPACE_OPTIONS, KEYSPACES, type KeyspaceName } from "./keys.ts";
import { runMigrations } from "./migrations.ts";
import { bumpingOncePerName, snapshotReset, watchKeyspace } from "./versions.ts";

// The handle and its key helpers live in handle.ts, which the store modules import (so that opening, which
// runs the migrations over those modules, makes no circle); everything else may import them from here.
export { END, countRecords, fitsInKey, recordIdsAfter, type Keyspaces, type Store } from "./handle.ts";

export interface OpenOptions {
  /** Runs pending migrations (the server does; worker threads open an already-migrated store). */
  migrate?: boolean;
}


// Keyspaces whose decoded records are kept (see openDB below): read on nearly every request.
const CACHED = new Set<KeyspaceName>(["statuses", "apps"]);

/** Reader-table slots: (main thread + 64 workers + a few CLI processes) × ~180 snapshots each, rounded up. */
export const READER_SLOTS = 16_384;

export function openStore(dir: string, options: OpenOptions = { migrate: true }): Store {
  mkdirSync(dir, { recursive: true });
  const root: RootDatabase = open({
    path: join(dir, "warren.lmdb"),
    // Named sub-databases (keys.ts) at most; set per open, not stored, so raising it is safe for old data.
    maxDbs: 128,
    // Keep the memory map generous: LMDB grows the file lazily.
    mapSize: 2 ** 36,
    // LMDB's reader table (126 slots by default) holds one slot per live read snapshot, and lmdb-js keeps a
    // snapshot alive past its event-loop turn while an async job or iterator still uses it. Under an inbox
    // flood the main thread and each job worker (up to 64, each with up to ~180 jobs in flight across the
    // lanes) held more than 126 (1,391 jobs failed with MDB_READERS_FULL). A slot is 64 bytes of the lock
    // file, and writers scan only up to the highest slot in use, so the table is sized for the worst case.
    maxReaders: READER_SLOTS,
    compression: false,
  });
  const db = {} as Keyspaces;
  for (const [name, dbName] of Object.entries(KEYSPACES) as [KeyspaceName, string][]) {
    db[name] = root.openDB({
      name: dbName,
      encoding: "msgpack",
      keyEncoding: "ordered-binary",
      sharedStructuresKey: STRUCTURES_KEY,
      // Records read on nearly every request keep their decoded object. A kept entry remembers the LMDB
      // transaction id of the page it was read from, and every read (inside writes too) compares it with
      // the page's current one, so a write by any thread or process makes the next read decode afresh.
      // Only reads may fill the cache: lmdb-js keeps a record written inside a transaction without that
      // id and then never checks it again, so the writer thread went on answering its own value after
      // a job on a worker thread (or the CLI) had replaced it, and wrote stale counters back. Nor may
      // reads inside a write (keptOnlyFromSnapshots below). Records are never mutated in place, so
      // sharing them is safe.
      ...(CACHED.has(name) ? { cache: { validated: true }, cachePuts: false } : {}),
      ...KEYSPACE_OPTIONS[name],
    });
    if (CACHED.has(name)) keptOnlyFromSnapshots(db[name]);
  }
  for (const name of Object.keys(KEYSPACES) as KeyspaceName[]) watchKeyspace(name, db[name], db);
  // Outermost, so a key too long to exist bumps no version on its way to being refused or found absent.
  for (const name of Object.keys(KEYSPACES) as KeyspaceName[]) boundKeys(db[name]);
  const store: Store = {
    dir,
    db,
    // The child transaction is what makes a throw inside `fn` roll back every write `fn` made: lmdb-js
    // commits a plain batched transaction's writes even when its callback throws.
    // lmdb-js resolves a transaction once it is committed and visible, and syncs it to disk just after
    // (overlappingSync): waiting for that sync too is what makes an acknowledged write survive a power cut,
    // not only a killed process. Writes committed together share one sync.
    write: async (fn) => {
      const result = await (root.transaction(() => root.childTransaction(() => bumpingOncePerName(db, fn))) as Promise<any>);
      await root.flushed;
      return result;
    },
    flushed: async () => {
      await root.flushed;
    },
    // env.info() (mdb_env_info) reads the meta page; getStats() would also walk the free pages.
    lastCommitId: () => (root as unknown as { env: { info(): { lastTxnId: number } } }).env.info().lastTxnId,
    freshSnapshot: () => {
      root.resetReadTxn();
      snapshotReset(store);
    },
    copyTo: (target) => root.backup(target, true),
    close: () => root.close(),
  };
  if (options.migrate !== false) runMigrations(store);
  return store;
}

// lmdb-js keeps what a get without options reads; with any options it only answers.
const ANSWER_ONLY = Object.freeze({});

/**
 * Inside a write transaction a cached keyspace's get still answers a kept record whose page is unchanged, but
 * keeps nothing it reads. A page the transaction has already changed (a record put before the read, on the
 * same page) carries the transaction's work id, not a commit id, and a later commit is given that very id:
 * a record kept under it passed the check once another thread had replaced it in that commit, and was
 * answered stale until something else changed the page (a quote accepted by a job on a worker thread was read
 * as quotes_count 0 by the next GET, the quoted status having been read by the write that posted the quote).
 */
function keptOnlyFromSnapshots(keyspace: Database<any, any>): void {
  const env = (keyspace as unknown as { env: { writeTxn?: unknown } }).env;
  const get = keyspace.get.bind(keyspace) as (key: unknown, options?: unknown) => unknown;
  keyspace.get = ((key: unknown, options?: unknown) => get(key, options ?? (env.writeTxn ? ANSWER_ONLY : undefined))) as typeof keyspace.get;
}
