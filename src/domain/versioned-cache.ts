// Per-thread caches of values read from the store, each kept with the versions (store/versions.ts) of what
// it was read from and served while those are unchanged. A write anywhere else (a job on a worker thread
// fanning out, a favourite on another status) leaves them alone; a write to what they depend on, by any
// thread or process, makes the next lookup read afresh.
import type { Store } from "../store/db.ts";
import { insideWrite, noteExpiry, noteRead, readVersions, recordingReads, versionsUnchanged, type Versions } from "../store/versions.ts";

/** The version names a value depends on, the versions they had when it was read, and when it runs out. */
export interface Stamp extends Versions {
  /** ms since the epoch (a mute's end); Infinity for never */
  until: number;
}

/** Is what was read under `stamp` still exactly what the store holds? */
export function stampCurrent(store: Store, stamp: Stamp, now: number): boolean {
  return now < stamp.until && versionsUnchanged(store, stamp);
}

interface Entry<T> {
  value: T;
  stamp: Stamp;
}

export class VersionedCache<T> {
  private entries = new Map<string, Entry<T>>();
  private weight = 0;

  /** `limit`: of the values' total weight (by default each weighs 1, so a number of entries). */
  constructor(
    private readonly limit: number,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  /**
   * The value kept under `key` while its versions are unchanged, else what `load` reads now. The versions a
   * value depends on are those `load` names plus those of every status and account it reads, taken in the
   * same read snapshot (the lookup is synchronous). Nothing read inside a write transaction is kept.
   */
  get(store: Store, key: string, load: () => { value: T; depends: readonly string[] }): Entry<T> {
    const kept = this.entries.get(key);
    if (kept && stampCurrent(store, kept.stamp, Date.now())) {
      // A recording around this lookup (a page being built) depends on the same versions.
      for (const name of kept.stamp.names) noteRead(name);
      if (kept.stamp.until !== Infinity) noteExpiry(kept.stamp.until);
      return kept;
    }
    const { result, reads } = recordingReads(load);
    for (const name of result.depends) reads.names.add(name);
    const names = [...reads.names];
    const entry = { value: result.value, stamp: { ...readVersions(store, names), until: reads.until } };
    if (insideWrite(store)) return entry;
    if (kept) this.forget(key, kept);
    const weight = this.weigh(entry.value);
    if (weight > this.limit) return entry;
    for (const [oldest, old] of this.entries) {
      if (this.weight + weight <= this.limit) break;
      this.forget(oldest, old);
    }
    this.entries.set(key, entry);
    this.weight += weight;
    return entry;
  }

  private forget(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.weight -= this.weigh(entry.value);
  }
}
