// The index of caches: every cache tier in the server, with its key, what invalidates it, its bound, its thread
// and its file (GoToSocial keeps the same list in internal/cache/cache.go). docs/architecture.md shows this
// table; tests/domain/caches.test.ts checks that every versioned tier is registered by the code that keeps it
// and that the page lists every tier.
//
// One invalidation mechanism: versions (store/versions.ts), bumped by every write to what they name in the
// write's own transaction, and checked through the version log's per-thread mirror (store/version-log.ts).
// Three tiers are not versioned, each for a stated reason: lmdb-js's own record cache (the storage engine's,
// checked against LMDB's page transaction ids), the presented-account memo (keyed by record object, which a
// changed account never is), and two time- or never-invalidated ones (global suggestions, federation keys).
// Layers above the domain (http/cache) reach versions only through ./invalidate.ts.
import { keptRecordTiers } from "../../store/versions.ts";

export interface CacheTier {
  name: string;
  /** What one entry is found by. */
  key: string;
  /** What makes an entry stale; "versions" tiers name the version prefixes (store/versions.ts versionName). */
  invalidatedBy: string;
  mechanism: "versions" | "lmdb transaction id" | "object identity" | "time";
  bound: string;
  /** Every tier is per thread: the main thread and each job worker keep their own. */
  thread: string;
  file: string;
}

const PER_THREAD = "per thread and store handle";

export const CACHE_TIERS = [
  {
    name: "lmdb record cache",
    key: "record key, in the statuses and apps keyspaces",
    invalidatedBy: "the LMDB page's transaction id, checked on every read (filled by reads outside writes only)",
    mechanism: "lmdb transaction id",
    bound: "lmdb-js weak LRU: 8,192 held, the rest until collected",
    thread: "per thread (lmdb-js)",
    file: "src/store/db.ts",
  },
  {
    name: "kept statuses",
    key: "status id (absent ones too)",
    invalidatedBy: "s: of the status",
    mechanism: "versions",
    bound: "5,000",
    thread: PER_THREAD,
    file: "src/store/statuses.ts",
  },
  {
    name: "kept cards",
    key: "status id",
    invalidatedBy: "s: of the status (a card's writes bump it)",
    mechanism: "versions",
    bound: "20,000",
    thread: PER_THREAD,
    file: "src/store/statuses-cards.ts",
  },
  {
    name: "kept media",
    key: "media id",
    invalidatedBy: "m: of the attachment",
    mechanism: "versions",
    bound: "20,000",
    thread: PER_THREAD,
    file: "src/store/media.ts",
  },
  {
    name: "viewers",
    key: "bearer token as sent",
    invalidatedBy: "t: of the token, v: and a: of its account",
    mechanism: "versions",
    bound: "10,000",
    thread: PER_THREAD,
    file: "src/domain/auth/viewer.ts",
  },
  {
    name: "accounts",
    key: "account id (absent ones too)",
    invalidatedBy: "a: of the account",
    mechanism: "versions",
    bound: "10,000",
    thread: PER_THREAD,
    file: "src/domain/accounts/read.ts",
  },
  {
    name: "viewer facts",
    key: "viewer id",
    invalidatedBy: "v: of the viewer; the end of the first mute behind an answer",
    mechanism: "versions",
    bound: "2,000 viewers, 1,000 answers each",
    thread: PER_THREAD,
    file: "src/domain/timelines/viewer-facts.ts",
  },
  {
    name: "active filters",
    key: "account id",
    invalidatedBy: "v: of the account; the end of the first filter to expire",
    mechanism: "versions",
    bound: "200,000 keywords and statuses",
    thread: PER_THREAD,
    file: "src/domain/filters/match.ts",
  },
  {
    name: "followers",
    key: "account id and locality (local for fan-out, remote for delivery)",
    invalidatedBy: "fo: of the account",
    mechanism: "versions",
    bound: "1,000,000 ids",
    thread: PER_THREAD,
    file: "src/domain/timelines/followers.ts",
  },
  {
    name: "personal suggestions",
    key: "viewer id",
    invalidatedBy: "v: of the viewer, of its friends and of the followers read; fo: of the accounts read; a: and s: read",
    mechanism: "versions",
    bound: "2,000 viewers",
    thread: PER_THREAD,
    file: "src/domain/suggestions/suggest.ts",
  },
  {
    name: "global suggestions",
    key: "store handle (one value)",
    invalidatedBy: "time: read again after 10 minutes (rankings, not records)",
    mechanism: "time",
    bound: "1",
    thread: PER_THREAD,
    file: "src/domain/suggestions/suggest.ts",
  },
  {
    name: "federation key pairs",
    key: "data directory and actor (account or instance)",
    invalidatedBy: "never: an actor's key pairs are never replaced",
    mechanism: "time",
    bound: "10,000, then emptied",
    thread: "per thread",
    file: "src/federation/keys.ts",
  },
  {
    name: "presented accounts",
    key: "config and account record object",
    invalidatedBy: "none needed: a memo of a pure rendering of an immutable record; a changed account is a new object (accounts above hand out a new one when a: moves)",
    mechanism: "object identity",
    bound: "weak: lives as long as its record object",
    thread: "per thread",
    file: "src/entities/status.ts",
  },
  {
    name: "rendered statuses",
    key: "config, status id, signed in or not",
    invalidatedBy: "s: of the status, m: of its media, e: for a local text naming a shortcode; its application; a running poll's end",
    mechanism: "versions",
    bound: "48 MiB (UTF-8)",
    thread: "per thread and config",
    file: "src/http/cache/rendered-statuses.ts",
  },
  {
    name: "timeline pages",
    key: "credentials and URL as sent",
    invalidatedBy: "t: and v: as at the token check, h:/l:/f: of the feeds scanned, a:/s:/m: of all examined (a: alone: rendered again; h: of a home's newest page: new rows taken in); a hiding mute's or filter's end",
    mechanism: "versions",
    bound: "2,000 pages and 64 MiB",
    thread: "per thread and app",
    file: "src/http/cache/timeline-pages.ts",
  },
  {
    name: "page windows",
    key: "credentials, path and parameters but cursors and limit (a feed as one viewer pages it)",
    invalidatedBy: "the same as a timeline page built by the window's scan (any change drops it; a window dropped or replaced before it answered three pages: none for its key for 10 s)",
    mechanism: "versions",
    bound: "500 windows and 32 MiB, 100 shown statuses and 1,000 rows each",
    thread: "per thread and app",
    file: "src/http/cache/page-windows.ts",
  },
  {
    name: "thread shapes",
    key: "status id (the thread below it)",
    invalidatedBy: "s: of the status and of every reply it read (a write to a status's replies bumps its s:)",
    mechanism: "versions",
    bound: "200,000 replies in all, 10,000 per thread",
    thread: PER_THREAD,
    file: "src/domain/statuses/thread-shape.ts",
  },
  {
    name: "notification windows",
    key: "account id",
    invalidatedBy: "n: and v: of the account, a:/s: of every sender, status and author read (and what is kept with it); a mute's or filter's end",
    mechanism: "versions",
    bound: "1,000 accounts and 48 MiB (with what is kept with them), 2,000 rows each",
    thread: PER_THREAD,
    file: "src/domain/notifications/window.ts",
  },
  {
    name: "grouped notification pages",
    key: "account's window, parameters, the rows shown",
    invalidatedBy: "its window's versions, to which the page's reads are added",
    mechanism: "versions",
    bound: "256 pages and group member lists per window",
    thread: PER_THREAD,
    file: "src/http/cache/notification-groups.ts",
  },
] as const satisfies readonly CacheTier[];

export type CacheTierName = (typeof CACHE_TIERS)[number]["name"];

const registered = new Set<string>();

/** Called by each module that keeps a cache (or by the cache as it is made), with its tier's name above. */
export function registerCache(tier: CacheTierName): void {
  registered.add(tier);
}

/** The tiers for which a cache has been made in this thread (the store's kept records included). */
export function registeredCaches(): ReadonlySet<string> {
  return new Set([...registered, ...keptRecordTiers()]);
}
