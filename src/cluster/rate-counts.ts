// Rate-limit counts shared by the server processes of one supervisor (docs/scaling.md).
//
// A throttle with a small budget (sign-in, sign-up, app registration, mail forms, uploads: under
// EXACT_BELOW requests per window) is counted exactly: each request asks the supervisor, which keeps the one
// FixedWindows (a round trip per request, on routes that see few). The busy throttles (every API request
// counts against 300 or 1,500 per 5 minutes) are counted locally and synced: each process adds its own
// requests to the others' counts as last heard, sends what it counted every SYNC_MS, and the supervisor
// sends each process the others' totals. A count is then short by at most what the other processes took
// in the last ~2 × SYNC_MS, never by a whole budget. A round trip on every request halved the requests
// served per CPU-second (bench/processes.ts).
import { resetText, type Count, type Limit } from "../http/plugins/rate-limits/windows.ts";

/** Budgets below this (before WARREN_RATE_LIMIT_FACTOR) are counted exactly, by the supervisor. */
export const EXACT_BELOW = 100;
/** How often counts travel each way. */
export const SYNC_MS = 25;
/** How often windows that have ended are forgotten. */
const SWEEP_MS = 10_000;

/** Throttle name, window number and key: one count. */
type CountId = string;
/** [count, requests counted since the last sync, the window's end]. */
export type CountDelta = [CountId, number, number];

interface LocalCount {
  mine: number;
  others: number;
  unsent: number;
  resetAt: number;
}

/** A server process's side: counts the busy throttles here, syncing with the others through `send`. */
export class SyncedCounts {
  private readonly counts = new Map<CountId, LocalCount>();
  private readonly unsent = new Set<CountId>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sweptAt = Date.now();

  constructor(
    private readonly factor: number,
    private readonly send: (deltas: CountDelta[]) => void,
  ) {}

  hit(limit: Limit, key: string, now: number): Count {
    const periodMs = limit.periodSeconds * 1000;
    const window = Math.floor(now / periodMs);
    const resetAt = (window + 1) * periodMs;
    const id = `${limit.name}\n${window}\n${key}`;
    const count = this.countOf(id, resetAt);
    count.mine++;
    count.unsent++;
    this.unsent.add(id);
    this.timer ??= setTimeout(this.flush, SYNC_MS);
    const consumed = count.mine + count.others;
    const allowed = limit.limit * this.factor;
    return { limit: allowed, remaining: Math.max(allowed - consumed, 0), resetAt, resetText: resetText(resetAt), exceeded: consumed > allowed };
  }

  /** The other processes' totals, as the supervisor last heard them. */
  heard(others: [CountId, number, number][]): void {
    for (const [id, total, resetAt] of others) this.countOf(id, resetAt).others = total;
  }

  private countOf(id: CountId, resetAt: number): LocalCount {
    let count = this.counts.get(id);
    if (!count) this.counts.set(id, (count = { mine: 0, others: 0, unsent: 0, resetAt }));
    return count;
  }

  private readonly flush = (): void => {
    this.timer = null;
    const deltas: CountDelta[] = [];
    for (const id of this.unsent) {
      const count = this.counts.get(id)!;
      deltas.push([id, count.unsent, count.resetAt]);
      count.unsent = 0;
    }
    this.unsent.clear();
    this.send(deltas);
    if (Date.now() - this.sweptAt > SWEEP_MS) this.sweptAt = sweep(this.counts);
  };
}

interface TotalCount {
  total: number;
  /** By process (pid): what it counted. */
  by: Map<number, number>;
  resetAt: number;
}

/** The supervisor's side: totals of the busy throttles, and what each process has not heard yet. */
export class CountTotals {
  private readonly totals = new Map<CountId, TotalCount>();
  private readonly changed = new Set<CountId>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sweptAt = Date.now();

  /** `tell(pid, others)` sends a process the others' totals of the counts that changed. */
  constructor(private readonly tell: (others: (pid: number) => [CountId, number, number][]) => void) {}

  add(pid: number, deltas: CountDelta[]): void {
    for (const [id, delta, resetAt] of deltas) {
      let count = this.totals.get(id);
      if (!count) this.totals.set(id, (count = { total: 0, by: new Map(), resetAt }));
      count.total += delta;
      count.by.set(pid, (count.by.get(pid) ?? 0) + delta);
      this.changed.add(id);
    }
    this.timer ??= setTimeout(this.broadcast, SYNC_MS);
  }

  private readonly broadcast = (): void => {
    this.timer = null;
    const changed = [...this.changed].map((id) => [id, this.totals.get(id)!] as const);
    this.changed.clear();
    this.tell((pid) => changed.map(([id, count]) => [id, count.total - (count.by.get(pid) ?? 0), count.resetAt]));
    if (Date.now() - this.sweptAt > SWEEP_MS) this.sweptAt = sweep(this.totals);
  };
}

/** Forgets the counts of windows that have ended; returns when. */
function sweep(counts: Map<CountId, { resetAt: number }>): number {
  const now = Date.now();
  for (const [id, count] of counts) if (count.resetAt <= now) counts.delete(id);
  return now;
}
