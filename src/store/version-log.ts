// The version log: every write transaction that bumps versions (versions.ts) also appends the names it bumped,
// under the next sequence number, so a thread can learn what changed since it last looked by reading the new
// entries once, instead of re-reading every version a cached value depends on. LMDB runs one write
// transaction at a time (across threads and processes), so sequence numbers follow commit order.
//
// Each thread keeps a mirror: for every name bumped since the mirror's `floor`, the sequence number of its last
// bump. A value whose versions were read at sequence `seq` ≥ floor is current iff none of its names was
// bumped after `seq`: one map lookup per name. Older values (and every check inside a write transaction)
// compare their versions one by one, as before.
import type { Database } from "lmdb";

/** Key, in the versions keyspace, of the last sequence number written (no version name starts with "#"). */
const LOG_HEAD = "#log";
/** Entries kept: a thread that has not looked for longer re-checks its older values version by version. */
const LOG_KEPT = 4096;
/** Names the mirror remembers before it starts over from the current sequence. */
const MIRROR_MAX_NAMES = 200_000;

export interface LogKeyspaces {
  versions: Database<number, string>;
  versionLog: Database<string[], number>;
}

/** Inside a write transaction: records that `names` were bumped by it. */
export function appendToLog(db: LogKeyspaces, names: readonly string[]): void {
  if (names.length === 0) return;
  const seq = (db.versions.get(LOG_HEAD) ?? 0) + 1;
  db.versions.put(LOG_HEAD, seq);
  db.versionLog.put(seq, [...names]);
  if (seq > LOG_KEPT) db.versionLog.remove(seq - LOG_KEPT);
}

/** The log position of the current read snapshot. */
function logHead(db: LogKeyspaces): number {
  return db.versions.get(LOG_HEAD) ?? 0;
}

export class VersionMirror {
  private changedAt = new Map<string, number>();
  /** Values read at a sequence below this cannot be checked against the map. */
  private floor = Infinity;
  /** The last log entry applied. */
  private seq = -1;
  /**
   * The position of the current read snapshot, once synced. lmdb-js keeps a thread's snapshot until a
   * zero-delay timer or Store.freshSnapshot renews it, so one read of the head serves every check of the same
   * synchronous run: it is forgotten in a microtask (always before any timer) and by freshSnapshot.
   */
  private snapshotHead: number | undefined;
  /** The LMDB commit id the mirror was last brought up to (syncTo). */
  private syncedCommit = -1;

  constructor(private readonly db: LogKeyspaces) {}

  /** The next read starts a new snapshot (Store.freshSnapshot, and the microtask after every sync). */
  readonly snapshotEnded = (): void => {
    this.snapshotHead = undefined;
  };

  /**
   * Brings the mirror up to `commit` (the environment's last commit id): with nothing committed since it
   * last was, it is current without a read; otherwise `fresh` starts a new read snapshot, which holds that
   * commit, and the mirror syncs to it.
   */
  syncTo(commit: number, fresh: () => void): number {
    if (commit === this.syncedCommit && this.seq >= 0) {
      this.snapshotHead ??= this.seq;
      queueMicrotask(this.snapshotEnded);
      return this.seq;
    }
    fresh();
    const head = this.sync();
    this.syncedCommit = commit;
    return head;
  }

  /** Applies the log entries the current read snapshot holds beyond the mirror; returns its position. */
  sync(): number {
    if (this.snapshotHead !== undefined) return this.snapshotHead;
    const head = this.applyUpTo(logHead(this.db));
    this.snapshotHead = head;
    queueMicrotask(this.snapshotEnded);
    return head;
  }

  private applyUpTo(head: number): number {
    if (head === this.seq) return head;
    if (this.seq < 0 || head < this.seq) return this.restart(head);
    let expected = this.seq + 1;
    for (const { key, value } of this.db.versionLog.getRange({ start: expected, end: head + 1 })) {
      // Entries trimmed before this thread read them: what they bumped is unknown.
      if (key !== expected) this.floor = Math.max(this.floor, key - 1);
      for (const name of value) this.changedAt.set(name, key);
      expected = key + 1;
    }
    if (expected !== head + 1) this.floor = head;
    this.seq = head;
    if (this.changedAt.size > MIRROR_MAX_NAMES) return this.restart(head);
    return head;
  }

  /**
   * Were none of `names` bumped after `seq`? Undefined when the mirror cannot tell (`seq` older than what it
   * remembers). `head` is what sync() just returned.
   */
  unchangedSince(names: readonly string[], seq: number, head: number): boolean | undefined {
    if (!this.vouchesFor(seq, head)) return undefined;
    for (let i = 0; i < names.length; i++) if (this.bumpedAfter(names[i]!, seq)) return false;
    return true;
  }

  /** Which of `names` were bumped after `seq`; undefined when the mirror cannot tell. */
  changedSince(names: readonly string[], seq: number, head: number): string[] | undefined {
    if (!this.vouchesFor(seq, head)) return undefined;
    return names.filter((name) => this.bumpedAfter(name, seq));
  }

  /** unchangedSince for one name (no array for the kept records' hot path). */
  unchangedOneSince(name: string, seq: number, head: number): boolean | undefined {
    return this.vouchesFor(seq, head) ? !this.bumpedAfter(name, seq) : undefined;
  }

  /** Does the map hold every bump after `seq` up to `head`? */
  private vouchesFor(seq: number, head: number): boolean {
    return seq >= this.floor && seq <= head;
  }

  private bumpedAfter(name: string, seq: number): boolean {
    const at = this.changedAt.get(name);
    return at !== undefined && at > seq;
  }

  private restart(head: number): number {
    this.changedAt.clear();
    this.floor = head;
    this.seq = head;
    return head;
  }
}
