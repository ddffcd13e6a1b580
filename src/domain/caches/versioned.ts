// The generic versioned cache: values read from the store, kept per thread and store handle with the versions
// (store/versions.ts) of what they were read from, and served while those are unchanged. A write anywhere
// else (a job on a worker thread fanning out, a favourite on another status) leaves them alone; a write to
// what they depend on, by any thread or process, makes the next lookup read afresh. Every instance names its
// tier in the cache index (index.ts).
import type { Store } from "../../store/db.ts";
import { insideWrite, noteExpiry, noteRead, readVersions, recordingReads, versionsUnchanged, type Versions } from "../../store/versions.ts";
import { registerCache, type CacheTierName } from "./index.ts";
import { cacheCells } from "../../lib/metrics/counters.ts";

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

interface Entries<T> {
  map: Map<string, Entry<T>>;
  weight: number;
}

export interface VersionedCacheOptions<T> {
  /** A value's weight against the limit (by default 1, so the limit is a number of entries). */
  weigh?: (value: T) => number;
  /** Move a hit to the back of the eviction order (least recently used out first, not oldest). */
  lru?: boolean;
  /** For values that grow or learn their end after being kept: is this one still worth serving at `now`? */
  usable?: (value: T, now: number) => boolean;
}

export class VersionedCache<T> {
  private byStore = new WeakMap<Store, Entries<T>>();
  private readonly weigh: (value: T) => number;
  /** Its hits and misses in /metrics. */
  private readonly counts: ReturnType<typeof cacheCells>;

  /** `limit`: of the values' total weight per store handle. */
  constructor(
    tier: CacheTierName,
    private readonly limit: number,
    private readonly options: VersionedCacheOptions<T> = {},
  ) {
    registerCache(tier);
    this.counts = cacheCells(tier);
    this.weigh = options.weigh ?? (() => 1);
  }

  /**
   * The value kept under `key` while its versions are unchanged, else what `load` reads now. The versions a
   * value depends on are those `load` names plus those of every status and account it reads, taken in the
   * same read snapshot (the lookup is synchronous). Nothing read inside a write transaction is kept.
   */
  get(store: Store, key: string, load: () => { value: T; depends: readonly string[] }): Entry<T> {
    let entries = this.byStore.get(store);
    if (!entries) this.byStore.set(store, (entries = { map: new Map(), weight: 0 }));
    const kept = entries.map.get(key);
    const now = Date.now();
    if (kept && stampCurrent(store, kept.stamp, now) && (!this.options.usable || this.options.usable(kept.value, now))) {
      if (this.options.lru) {
        // Re-inserted: Map order is the eviction order.
        entries.map.delete(key);
        entries.map.set(key, kept);
      }
      // A recording around this lookup (a page being built) depends on the same versions.
      for (const name of kept.stamp.names) noteRead(name);
      if (kept.stamp.until !== Infinity) noteExpiry(kept.stamp.until);
      this.counts.hits.value++;
      return kept;
    }
    this.counts.misses.value++;
    const { result, reads } = recordingReads(load);
    // What `load` read is noted in a recording around this lookup already; what it names, here.
    for (const name of result.depends) {
      reads.names.add(name);
      noteRead(name);
    }
    const names = [...reads.names];
    const entry = { value: result.value, stamp: { ...readVersions(store, names), until: reads.until } };
    if (insideWrite(store)) return entry;
    if (kept) this.forget(entries, key, kept);
    const weight = this.weigh(entry.value);
    if (weight > this.limit) return entry;
    for (const [oldest, old] of entries.map) {
      if (entries.weight + weight <= this.limit) break;
      this.forget(entries, oldest, old);
    }
    entries.map.set(key, entry);
    entries.weight += weight;
    return entry;
  }

  private forget(entries: Entries<T>, key: string, entry: Entry<T>): void {
    entries.map.delete(key);
    entries.weight -= this.weigh(entry.value);
  }
}
