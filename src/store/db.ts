// The one LMDB environment. Only src/store/ imports lmdb: everything else sees typed functions.
import { open, type Database, type RootDatabase } from "lmdb";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { boundKeys, MAX_KEY_BYTES } from "./key-bounds.ts";
import { KEYSPACE_OPTIONS, KEYSPACES, type KeyspaceName } from "./keys.ts";
import { runMigrations } from "./migrations.ts";
import { bumpingOncePerName, snapshotReset, watchKeyspace } from "./versions.ts";

export type Keyspaces = { [K in KeyspaceName]: Database<any, any> };

export interface Store {
  readonly dir: string;
  readonly db: Keyspaces;
  /**
   * Runs `fn` inside one write transaction and resolves once it is committed to disk. `fn` must be
   * synchronous; reads inside it see its own writes. If it throws, none of its writes happen and the
   * promise rejects with the error. Nothing is acknowledged before this resolves.
   */
  write<T>(fn: () => T): Promise<T>;
  /** Waits for pending writes (used at shutdown). */
  flushed(): Promise<void>;
  /** Id of the last committed write transaction, by any thread or process: a sub-microsecond read. */
  lastCommitId(): number;
  /** Makes the next read start a fresh snapshot (reads otherwise share one snapshot per event-loop turn). */
  freshSnapshot(): void;
  /**
   * Copies one read snapshot of the whole environment, compacted, to the file `target` (LMDB's
   * mdb_env_copy2 on a libuv thread): writers go on meanwhile. Resolves once the copy is complete.
   */
  copyTo(target: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Runs pending migrations (the server does; worker threads open an already-migrated store). */
  migrate?: boolean;
}

// msgpackr's shared record structures live under this key in every keyspace, next to the records.
const STRUCTURES_KEY = Symbol.for("structures");

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

/** Upper bound for a key prefix in range scans: sorts after every key that starts with `prefix`. */
export const END = "\uffff";

/**
 * Whether these texts, with room to spare for a prefix and ids, fit in one key: for writes that leave out what
 * does not fit (a search index skips an absurd word) rather than refusing it. Every keyspace already answers
 * "not found" for a lookup by a key too long to exist (key-bounds.ts).
 */
export function fitsInKey(...texts: string[]): boolean {
  let bytes = 0;
  for (const text of texts) bytes += Buffer.byteLength(text);
  return bytes <= MAX_KEY_BYTES - 78;
}

/** Number of records in a keyspace keyed by plain ids (its shared structures entry left out). */
export function countRecords(keyspace: Database): number {
  return keyspace.getCount() - (keyspace.doesExist(STRUCTURES_KEY) ? 1 : 0);
}

/** The `limit` record ids after `afterId` (from the first with null) in a keyspace keyed by plain ids. */
export function recordIdsAfter(keyspace: Database, afterId: string | null, limit: number): string[] {
  const out: string[] = [];
  for (const key of keyspace.getKeys({ start: afterId ?? undefined })) {
    if (typeof key !== "string" || key === afterId) continue;
    out.push(key);
    if (out.length >= limit) break;
  }
  return out;
}
