// Grouped notifications kept per account: the newest of an account's notifications, each with whether the
// account may see it (read.ts shownTo, the costly part: its sender, the status, their authors), kept per thread
// while nothing they were read from has changed, and grown downwards as pages ask for older rows. A page of
// groups (group.ts groupRows) is then a walk over kept rows: the type filters, the group keys and the row
// budget are applied per request, exactly as the store scan applies them, so any max_id, limit, types[],
// exclude_types[] and grouped_types[] is answered from one window.
//
// A window depends on the account's notifications (`n:`, bumped by every write to them: a new one, a
// dismissal, a policy's merge), on what the account sees (`v:`: blocks both ways, mutes, follows, filters),
// on every account and status it read (`a:`, `s:`), and on the end of a mute or filter in force. Whatever is
// kept with a window (group members, rendered pages: http/cache/notification-groups.ts) adds its own
// dependencies to the window's (`depend`), so any change drops the lot; the next read starts a new window,
// which costs what one page scan cost before.
import type { Store } from "../../store/db.ts";
import { pageNotifications } from "../../store/notifications.ts";
import { insideWrite, mirrorStamp, recordingReads, versionName, type Reads } from "../../store/versions.ts";
import { stampCurrent, type Stamp } from "../caches/versioned.ts";
import { registerCache } from "../caches/index.ts";
import { cacheCells } from "../../lib/metrics/counters.ts";
import { groupKeyOf } from "./group-key.ts";
import { matches, NotificationReader, type NotificationFilter } from "./read.ts";
import type { NotificationRecord } from "../../model/notifications.ts";
import type { PageQuery } from "../../model/paging.ts";

/** Accounts whose windows are kept per thread, least recently used out first... */
const MAX_WINDOWS = 1_000;
/** ...and the bytes they weigh together, at most (rows at an estimate each, rendered pages by their size). */
const MAX_BYTES = 48 * 1024 * 1024;
/** What a kept row weighs: a decoded notification and its place in the window (an estimate, on the high side). */
const ROW_BYTES = 400;
/** Rows read at a time as a walk reaches the bottom of a window. */
const CHUNK = 100;
/** Rows a window grows to; a walk past them reads the store as before. */
const MAX_ROWS = 2_000;
/** Values kept with a window (group members, rendered pages), oldest out first. */
const MAX_KEPT = 256;

registerCache("notification windows");
const counts = cacheCells("notification windows");

/** The windows of one store handle, with their total weight. */
interface Shelf {
  windows: Map<string, NotificationWindow>;
  bytes: number;
}

interface Row {
  n: NotificationRecord;
  shown: boolean;
}

export class NotificationWindow {
  /** Newest first, every notification from the newest down to the oldest read so far. */
  readonly rows: Row[] = [];
  /** The oldest notification has been read. */
  complete = false;
  /** What is kept with the window by others (group members, rendered pages), dropped with it: see keep(). */
  readonly kept = new Map<string, { value: unknown; bytes: number }>();
  /** What the window weighs, its rows and what is kept with it (counted in its shelf's total). */
  bytes = 0;
  private readonly names: string[];
  private readonly known: Set<string>;
  readonly stamp: Stamp;

  constructor(
    store: Store,
    readonly recipientId: string,
    private readonly shelf: Shelf = { windows: new Map(), bytes: 0 },
  ) {
    this.names = [versionName.notifications(recipientId), versionName.viewer(recipientId)];
    this.known = new Set(this.names);
    this.stamp = { ...mirrorStamp(store, this.names), names: this.names, until: Infinity };
  }

  /** Adds what was read for something kept with the window to what the window depends on. */
  depend(reads: Reads): void {
    for (const name of reads.names) {
      if (this.known.has(name)) continue;
      this.known.add(name);
      this.names.push(name);
    }
    if (reads.until < this.stamp.until) this.stamp.until = reads.until;
  }

  /** What is kept with the window under `name`. */
  get<T>(name: string): T | undefined {
    return this.kept.get(name)?.value as T | undefined;
  }

  /** Keeps `value` (weighing `bytes`) with the window; call depend() with what it was read from. */
  keep(name: string, value: unknown, bytes: number): void {
    if (this.kept.size >= MAX_KEPT) {
      const [oldest, entry] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.weigh(-entry.bytes);
    }
    this.kept.set(name, { value, bytes });
    this.weigh(bytes);
  }

  private weigh(bytes: number): void {
    this.bytes += bytes;
    this.shelf.bytes += bytes;
  }

  /** Reads the next rows below the window; false when there are none or the window is full. */
  grow(store: Store): boolean {
    if (this.complete || this.rows.length >= MAX_ROWS) return false;
    const maxId = this.rows.at(-1)?.n.id ?? undefined;
    const { result, reads } = recordingReads(() => {
      const reader = new NotificationReader(store, this.recipientId);
      return pageNotifications(store, this.recipientId, { limit: CHUNK, maxId }, () => true).map((n) => ({ n, shown: reader.shown(n) }));
    });
    this.depend(reads);
    for (const row of result) this.rows.push(row);
    this.weigh(result.length * ROW_BYTES);
    if (result.length < CHUNK) this.complete = true;
    return result.length > 0;
  }
}

const shelves = new WeakMap<Store, Shelf>();

/** The account's window, current in this read snapshot; null inside a write transaction. */
export function notificationWindow(store: Store, recipientId: string): NotificationWindow | null {
  if (insideWrite(store)) return null;
  let shelf = shelves.get(store);
  if (!shelf) shelves.set(store, (shelf = { windows: new Map(), bytes: 0 }));
  let window = shelf.windows.get(recipientId);
  if (window) shelf.windows.delete(recipientId);
  if (window && stampCurrent(store, window.stamp, Date.now())) counts.hits.value++;
  else {
    counts.misses.value++;
    if (window) shelf.bytes -= window.bytes;
    window = new NotificationWindow(store, recipientId, shelf);
  }
  // Re-inserted: Map order is the eviction order, least recently used first.
  shelf.windows.set(recipientId, window);
  for (const [oldest, old] of shelf.windows) {
    if (shelf.windows.size <= 1 || (shelf.windows.size <= MAX_WINDOWS && shelf.bytes <= MAX_BYTES)) break;
    shelf.windows.delete(oldest);
    shelf.bytes -= old.bytes;
  }
  return window;
}

/** The first row older than `maxId` (rows are newest first). */
function startBelow(rows: readonly Row[], maxId: string | undefined): number {
  if (!maxId) return 0;
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (rows[mid]!.n.id >= maxId) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * group.ts groupRows from the window: the same rows, and the same row budget spent (the rows examined, the
 * row it stopped at), as the store scan. Undefined when the window cannot answer (since_id and min_id
 * pages, a walk past the window's size): the caller scans the store.
 */
export function windowGroupRows(
  window: NotificationWindow,
  store: Store,
  filter: NotificationFilter,
  groupedTypes: ReadonlySet<string> | null,
  query: PageQuery,
): NotificationRecord[] | undefined {
  if (query.sinceId || query.minId) return undefined;
  const out: NotificationRecord[] = [];
  if (query.limit <= 0) return out;
  // A page below the window (paging back through history) is read from the store, not kept.
  if (window.rows.length === 0) window.grow(store);
  const start = startBelow(window.rows, query.maxId ?? undefined);
  if (start === window.rows.length && !window.complete) return undefined;
  const budget = query.budget;
  const examined = budget?.examined ?? 0;
  const seen = new Set<string>();
  let lastId: string | null = null;
  for (let i = start; out.length < query.limit; i++) {
    if (i >= window.rows.length && !window.grow(store)) {
      if (window.complete) break;
      // Past what a window keeps: the caller scans, with the budget as it was.
      if (budget) budget.examined = examined;
      return undefined;
    }
    const { n, shown } = window.rows[i]!;
    if (budget && !budget.take()) {
      if (lastId) budget.stop(lastId, "older");
      break;
    }
    lastId = n.id;
    if (!shown || !matches(filter, n)) continue;
    const key = groupKeyOf(n, groupedTypes);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(n);
  }
  return out;
}
