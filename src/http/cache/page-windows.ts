// Windows of a feed for paged reads (max_id): a client paging back through a timeline, or many clients asking
// for pages just below the newest, each ask a URL never asked before, which the kept pages (timeline-pages.ts)
// cannot answer. A window is WINDOW_SHOWN shown statuses of one feed as one viewer reads it (the same
// credentials, path and filters; any max_id and limit), built by one scan below a max_id: every row examined,
// whether the timeline's rules showed it, and each shown status's JSON as that viewer is sent it. A page whose
// rows lie inside the window is then cut from it: the same rows, the same row budget, the same Link, the
// same bytes as a build (tests/http/timelines-windows.test.ts compares them). A window depends on everything
// its build read, like a kept page (page-stamp.ts), and is dropped at any change.
import type { Deps } from "../../deps.ts";
import type { Viewer } from "../../domain/auth/viewer.ts";
import { changedVersions, recordingReads, registerCache, syncVersionsTo, type Stamp } from "../../domain/caches/invalidate.ts";
import { loadStatuses, viewerAccountId } from "../../domain/statuses/load.ts";
import { writeBytes, type ByteWriter } from "../../lib/byte-writer.ts";
import { idBefore } from "../../lib/ids.ts";
import { cacheCells } from "../../lib/metrics/counters.ts";
import type { FilterContext } from "../../model/filters.ts";
import { RowBudget, type PageQuery } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import { linkHeader } from "../plugins/paging.ts";
import { JSON_TYPE, type Setter } from "../api/v1/statuses/shared.ts";
import { AskedBefore } from "./asked-before.ts";
import { writeStatuses } from "./rendered-statuses.ts";
import { pageStamp } from "./page-stamp.ts";

/** Shown statuses a window holds: five pages of the default 20. */
const WINDOW_SHOWN = 100;
/** Rows a window's build examines at most (a filtered feed that shows few of its rows ends its window early). */
const WINDOW_ROWS = 1000;
const MAX_WINDOWS = 500;
const MAX_BYTES = 32 * 1024 * 1024;
/** Keys remembered as paged once (a window is built for a key paged before). */
const MAX_ASKED = 20_000;
/**
 * A window costs about five pages' builds: one dropped (its feed changed) or replaced (the cursors jumped
 * about the feed) before it answered this many pages did not pay, and its key gets none for COOL_DOWN_MS.
 */
const PAYING_ANSWERS = 3;
const COOL_DOWN_MS = 10_000;
registerCache("page windows");
const counts = cacheCells("page windows");
const CURSORS = new Set(["max_id", "since_id", "min_id"]);

interface PageWindow {
  stamp: Stamp;
  /** The store's last commit id when the stamp was last found current (-1: not yet checked). */
  checkedAt: number;
  /** The max_id it was built below (it holds the rows under it), or null: built from the feed's newest row. */
  upper: string | null;
  /**
   * The feed's lowest row at or above `upper` when it was read (null: none): a max_id up to it finds no row
   * the window lacks (a row put in the feed since bumps the feed's version, which drops the window).
   */
  ceiling: string | null;
  /** Every row examined, newest first. */
  rows: string[];
  /** Per row: did the timeline's rules show it? */
  shown: boolean[];
  /** Per row: its status's JSON when shown (null when the loader left it out: its author is gone). */
  json: (Uint8Array | null)[];
  /** Do the rows reach the end of the feed? */
  complete: boolean;
  /** Did its build stop on its row budget (so rows lie below its last)? */
  rowsBelow: boolean;
  bytes: number;
  answers: number;
  /** Pages already cut, by where they start and the request's other parameters: the same bytes and Link again. */
  sent: Map<string, SentPage>;
}

interface SentPage {
  body: Uint8Array;
  link: string | null;
}

/** Pages kept per window (a client's max_ids mostly land on a few starting rows). */
const SENT_PER_WINDOW = 8;

/** The rows of a page cut from a window. */
interface Cut {
  ids: string[];
  json: Uint8Array[];
}

/**
 * The window's key: credentials, path and every parameter but the cursors and the limit (one window serves all
 * their pages); and the parameters but the cursors as sent (which the Link repeats).
 */
function keysOf(request: Request): { key: string; rest: string } {
  const url = new URL(request.url);
  const params = [...url.searchParams].filter(([name]) => !CURSORS.has(name));
  const key = `${request.headers.get("authorization") ?? ""} ${url.pathname}?${new URLSearchParams(params.filter(([name]) => name !== "limit"))}`;
  return { key, rest: `${new URLSearchParams(params)}` };
}

/** Index of the first row strictly older than `maxId` (rows are newest first; ids of one width sort as text). */
function firstBelow(rows: string[], maxId: string): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]! < maxId) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Does the window hold every row below `maxId` down to its own lowest? */
function covers(window: PageWindow, maxId: string): boolean {
  return window.upper === null || maxId <= window.upper || window.ceiling === null || maxId <= window.ceiling;
}

/** Does the window hold the whole page `query` asks for? (The walk of `cut`, without its budget.) */
function holds(window: PageWindow, query: PageQuery): boolean {
  return cut(window, { ...query, budget: query.budget && new RowBudget(query.budget.rows) }) !== undefined;
}

/** The page `query` asks for, as a scan of the feed would read it (store/paging.ts), if the window holds it. */
function cut(window: PageWindow, query: PageQuery): Cut | undefined {
  const { maxId, budget } = query;
  if (!maxId || query.sinceId || query.minId || !covers(window, maxId)) return undefined;
  const out: Cut = { ids: [], json: [] };
  let lastId: string | null = null;
  for (let i = firstBelow(window.rows, maxId); i < window.rows.length; i++) {
    if (budget && !budget.take()) {
      if (lastId) budget.stop(lastId, "older");
      return out;
    }
    lastId = window.rows[i]!;
    if (!window.shown[i]) continue;
    out.ids.push(lastId);
    const json = window.json[i];
    if (json) out.json.push(json);
    if (out.ids.length >= query.limit) return out;
  }
  if (window.complete) return out;
  // A row lies below the last and the read's budget is spent: a scan stops here too.
  if (window.rowsBelow && budget && budget.examined >= budget.rows) {
    if (lastId) budget.stop(lastId, "older");
    return out;
  }
  return undefined;
}

/** How the route reads its feed: `read` pages it, reporting each row it examines through query.examined. */
export interface WindowedRead {
  read: (page: PageQuery) => StatusRecord[];
  context: FilterContext | null;
}

export class PageWindows {
  private windows = new Map<string, PageWindow>();
  private bytes = 0;
  private asked = new AskedBefore(MAX_ASKED);
  private coolingUntil = new Map<string, number>();

  /**
   * The page for a request with a max_id, cut from a window, or undefined (the route builds it). A window is
   * built for a key paged before: one request alone is answered by its own build.
   */
  answer(deps: Deps, request: Request, set: Setter, viewer: Viewer | null, query: PageQuery, feed: WindowedRead): Uint8Array | undefined {
    if (!deps.config.pageWindows || !query.maxId || query.sinceId || query.minId) return undefined;
    const { key, rest } = keysOf(request);
    const window = this.windowFor(deps, key, viewer, query, feed);
    if (!window) return undefined;
    window.answers++;
    const sentKey = `${firstBelow(window.rows, query.maxId)} ${rest}`;
    let sent = window.sent.get(sentKey);
    if (!sent) {
      const page = cut(window, query)!;
      const link = linkHeader({ baseUrl: deps.config.url, request, first: page.ids[0], last: page.ids.at(-1), next: true, prevParam: "min_id", budget: query.budget }) ?? null;
      sent = { body: writeBytes((out) => joined(out, page.json)), link };
      if (window.sent.size >= SENT_PER_WINDOW) window.sent.delete(window.sent.keys().next().value!);
      window.sent.set(sentKey, sent);
      this.bytes += sent.body.length;
      window.bytes += sent.body.length;
    }
    if (sent.link) set.headers["link"] = sent.link;
    set.headers["content-type"] = JSON_TYPE;
    if (deps.config.cacheStatusHeader) set.headers["x-warren-cache"] = "window";
    return sent.body;
  }

  /** A current window that holds the page `query` asks for: kept, grown up to its max_id, or built. */
  private windowFor(deps: Deps, key: string, viewer: Viewer | null, query: PageQuery, feed: WindowedRead): PageWindow | undefined {
    const maxId = query.maxId!;
    const now = Date.now();
    const kept = this.current(deps, key, now);
    if (kept && holds(kept, query)) {
      counts.hits.value++;
      return kept;
    }
    // A window below an older max_id grows up to this one (clients paging from just below the newest).
    if (kept && !covers(kept, maxId)) {
      const before = kept.bytes;
      const grown = extend(deps, viewer, kept, maxId, feed);
      this.bytes += kept.bytes - before;
      if (grown && holds(kept, query)) return kept;
    }
    counts.misses.value++;
    if (!this.asked.admit(key) || (this.coolingUntil.get(key) ?? 0) > now) return undefined;
    if (kept && kept.answers < PAYING_ANSWERS) {
      this.coolDown(key, now);
      return undefined;
    }
    // From the feed's newest row, unless the request pages below the window it has: clients ask for pages
    // just below the newest far more often than deep in the feed; when that does not hold it, below max_id.
    const deeper = kept && kept.rows.length > 0 && maxId < kept.rows.at(-1)!;
    let window = deeper ? undefined : build(deps, viewer, null, feed);
    if (!window || !holds(window, query)) window = build(deps, viewer, maxId, feed);
    if (!window || !holds(window, query)) return undefined;
    this.set(key, window);
    return window;
  }

  private current(deps: Deps, key: string, now: number): PageWindow | undefined {
    const window = this.windows.get(key);
    if (!window) return undefined;
    if (stillCurrent(deps, window, now)) return window;
    this.drop(key);
    if (window.answers < PAYING_ANSWERS) this.coolDown(key, now);
    return undefined;
  }

  private coolDown(key: string, now: number): void {
    if (this.coolingUntil.size >= MAX_ASKED) this.coolingUntil.clear();
    this.coolingUntil.set(key, now + COOL_DOWN_MS);
  }

  private set(key: string, window: PageWindow): void {
    this.drop(key);
    this.windows.set(key, window);
    this.bytes += window.bytes;
    for (const oldKey of this.windows.keys()) {
      if (this.windows.size <= MAX_WINDOWS && this.bytes <= MAX_BYTES) break;
      this.drop(oldKey);
    }
  }

  private drop(key: string): void {
    const window = this.windows.get(key);
    if (!window) return;
    this.windows.delete(key);
    this.bytes -= window.bytes;
  }
}

function stillCurrent(deps: Deps, window: PageWindow, now: number): boolean {
  if (now >= window.stamp.until) return false;
  const commit = deps.store.lastCommitId();
  if (window.checkedAt === commit) return true;
  // Compare with the newest commit, not with the snapshot this thread's reads happen to share.
  if (window.stamp.seq !== syncVersionsTo(deps.store, commit)) {
    const since = changedVersions(deps.store, window.stamp);
    if (!since || since.changed.length > 0) return false;
  }
  window.checkedAt = commit;
  return true;
}

/** What one scan of the feed read: its rows, each shown status's JSON, and the stamp of all it read. */
interface Scanned {
  rows: string[];
  shown: boolean[];
  json: (Uint8Array | null)[];
  /** Shown statuses found. */
  found: number;
  /** Did it stop on its row budget (rows remain below it unexamined)? */
  stopped: boolean;
  /** The feed's lowest row at or above the max_id read below (null: none, or no max_id). */
  ceiling: string | null;
  stamp: Stamp;
}

/** Reads the feed as `query` pages it (limit WINDOW_SHOWN), loads and renders what it shows, in one read snapshot. */
function scan(deps: Deps, viewer: Viewer | null, query: PageQuery, { read, context }: WindowedRead): Scanned | undefined {
  const rows: string[] = [];
  const shown: boolean[] = [];
  const budget = new RowBudget(WINDOW_ROWS);
  const examined = (id: string, isShown: boolean) => (rows.push(id), shown.push(isShown));
  const { result, reads } = recordingReads(() => {
    const statuses = read({ ...query, limit: WINDOW_SHOWN, budget, examined });
    const loaded = loadStatuses(deps, viewerAccountId(viewer), statuses, { context });
    // One row examined upwards from the max_id: the lowest row at or above it.
    let ceiling: string | null = null;
    if (query.maxId) read({ limit: 1, minId: idBefore(query.maxId), budget: new RowBudget(1), examined: (id) => (ceiling ??= id) });
    return { found: statuses.length, json: renderEach(deps, loaded), ceiling };
  });
  // A read that reported no rows of its own (a hashtag with any[]: several feeds merged) has no window.
  if (shown.filter(Boolean).length !== result.found) return undefined;
  const stamp = pageStamp(deps, viewer, reads.names, reads.until);
  if (!stamp) return undefined;
  const json = rows.map((id) => result.json.get(id) ?? null);
  return { rows, shown, json, found: result.found, stopped: budget.stoppedAt !== null, ceiling: result.ceiling, stamp };
}

const bytesOf = (json: (Uint8Array | null)[]) => json.reduce((sum, part) => sum + (part?.length ?? 0), 0) + json.length * 24;

/** A window of the feed below `upper` (null: from its newest row). */
function build(deps: Deps, viewer: Viewer | null, upper: string | null, feed: WindowedRead): PageWindow | undefined {
  const scanned = scan(deps, viewer, { limit: WINDOW_SHOWN, maxId: upper }, feed);
  if (!scanned) return undefined;
  const { rows, shown, json, stamp, ceiling } = scanned;
  const complete = scanned.found < WINDOW_SHOWN && !scanned.stopped;
  return { stamp, checkedAt: -1, upper, ceiling, rows, shown, json, complete, rowsBelow: scanned.stopped, bytes: bytesOf(json), answers: 0, sent: new Map() };
}

/**
 * A current window grown upwards to hold the rows below `maxId` (above its own upper bound): the rows in
 * between are read, in the current snapshot, and put in front. False when they are too many for a window.
 */
function extend(deps: Deps, viewer: Viewer | null, window: PageWindow, maxId: string, feed: WindowedRead): boolean {
  if (window.upper === null) return false;
  const scanned = scan(deps, viewer, { limit: WINDOW_SHOWN, maxId, sinceId: idBefore(window.upper) }, feed);
  if (!scanned || scanned.found >= WINDOW_SHOWN || scanned.stopped) return false;
  // Usually no row and a few names (the feed's, the viewer's), all in the window's already.
  const known = scanned.stamp.names.length < 16 ? null : new Set(window.stamp.names);
  const more = scanned.stamp.names.filter((name) => (known ? !known.has(name) : !window.stamp.names.includes(name)));
  window.stamp = {
    names: more.length ? [...window.stamp.names, ...more] : window.stamp.names,
    versions: null,
    seq: Math.min(window.stamp.seq, scanned.stamp.seq),
    until: Math.min(window.stamp.until, scanned.stamp.until),
  };
  if (scanned.rows.length) {
    // The oldest rows go past twice a build's rows: the window then ends there.
    const keep = Math.max(0, Math.min(window.rows.length, 2 * WINDOW_ROWS - scanned.rows.length));
    if (keep < window.rows.length) [window.complete, window.rowsBelow] = [false, true];
    window.rows = [...scanned.rows, ...window.rows.slice(0, keep)];
    window.shown = [...scanned.shown, ...window.shown.slice(0, keep)];
    window.json = [...scanned.json, ...window.json.slice(0, keep)];
    // Pages are kept by the row they start at, and the rows moved.
    window.sent.clear();
    window.bytes = bytesOf(window.json);
  }
  window.upper = maxId;
  window.ceiling = scanned.ceiling;
  return true;
}

/** Each loaded status's JSON by its id, cut from one buffer written as a page would be. */
function renderEach(deps: Deps, loaded: ReturnType<typeof loadStatuses>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (loaded.statuses.length === 0) return out;
  const ends: number[] = [];
  const all = writeBytes((writer) => {
    for (const status of loaded.statuses) {
      writeStatuses(writer, deps, { viewerId: loaded.viewerId, statuses: [status] });
      ends.push(writer.position);
    }
  });
  let start = 0;
  loaded.statuses.forEach((status, i) => {
    // Each was written as a one-status array: its JSON is inside the brackets.
    out.set(status.status.id, all.subarray(start + 1, ends[i]! - 1));
    start = ends[i]!;
  });
  return out;
}

function joined(out: ByteWriter, parts: Uint8Array[]): void {
  out.ascii("[");
  for (let i = 0; i < parts.length; i++) {
    if (i) out.ascii(",");
    out.bytes(parts[i]!);
  }
  out.ascii("]");
}
