// The open store as the rest of the code sees it (db.ts opens it), and the key helpers of every store module.
import type { Database } from "lmdb";
import { MAX_KEY_BYTES } from "./key-bounds.ts";
import type { KeyspaceName } from "./keys.ts";

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

// msgpackr's shared record structures live under this key in every keyspace, next to the records.
export const STRUCTURES_KEY = Symbol.for("structures");

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
