// Versions: a counter per thing a cache may depend on (an account, what an account sees, a token, a status,
// a feed), bumped by every write that changes it, in that write's transaction. A cache keeps the versions it
// read with its value and serves the value while they are unchanged, so a write by any thread or process
// (a job on a worker, the CLI) invalidates exactly what it changed and nothing else.
//
// Nobody bumps by hand: openStore wraps put and remove of the keyspaces in WRITE_RULES, so every write to
// them bumps the versions their key names. Reads of statuses, accounts and media are noted while a cached value is
// read (`recordingReads`), so a cached page depends on every status and account it examined, shown or not;
// feed scans note their feed (store/timelines.ts), and reads of a mute with an end note when it runs out.
import type { Database } from "lmdb";
import type { KeyspaceName } from "./keys.ts";
import type { Store } from "./handle.ts";
import { appendToLog, VersionMirror, type LogKeyspaces } from "./version-log.ts";
import { cacheCells } from "../lib/metrics/counters.ts";

/** Version names. */
export const versionName = {
  /** an account record: how the account looks to everyone (counters, profile, suspension) */
  account: (id: string) => `a:${id}`,
  /** what an account sees: its user, its follows, blocks (both ways), mutes, lists, flags on statuses, filters */
  viewer: (id: string) => `v:${id}`,
  token: (hash: string) => `t:${hash}`,
  /** a status record and its preview card */
  status: (id: string) => `s:${id}`,
  /** a media attachment (its description and focus change on attached media too) */
  media: (id: string) => `m:${id}`,
  home: (accountId: string) => `h:${accountId}`,
  /** an account's statuses and reblogs (its by-account index: account statuses pages) */
  accountStatuses: (accountId: string) => `as:${accountId}`,
  list: (listId: string) => `l:${listId}`,
  publicFeed: (feed: string) => `f:${feed}`,
  /** who follows an account (fan-out keeps the list) */
  followers: (accountId: string) => `fo:${accountId}`,
  /** an account's notifications (kept grouped notification pages, http/cache/notification-groups.ts) */
  notifications: (recipientId: string) => `n:${recipientId}`,
  /** the custom emojis, all of them (what a `:shortcode:` in a local text shows) */
  emojis: () => "e:",
  /** an instance setting changed at run time (store/settings.ts), e.g. who may read the public timelines */
  setting: (name: string) => `st:${name}`,
  /** the IP blocks, all of them (every request checks them: domain/admin/ip-blocks.ts) */
  ipBlocks: () => "ib:",
};

type KeyRule = (key: unknown) => string[];

const byId = (name: (id: string) => string): KeyRule => (key) => (typeof key === "string" ? [name(key)] : []);
/** Array keys: the names of the elements at `positions`. */
const byParts = (name: (id: string) => string, ...positions: number[]): KeyRule => (key) =>
  Array.isArray(key) ? positions.map((i) => name(String(key[i]))) : [];

/** Which versions a write to a key of each keyspace bumps. */
const WRITE_RULES: Partial<Record<KeyspaceName, KeyRule>> = {
  accounts: byId(versionName.account),
  // Approval, confirmation and disabling change both what others see and the viewer behind a token.
  users: (key) => [...byId(versionName.account)(key), ...byId(versionName.viewer)(key)],
  tokens: byId(versionName.token),
  statuses: byId(versionName.status),
  cards: byId(versionName.status),
  // A status's replies are part of its thread (kept context answers, http/cache/thread-answers.ts).
  statusReplies: byParts(versionName.status, 0),
  notifications: byParts(versionName.notifications, 0),
  media: byId(versionName.media),
  homeFeed: byId(versionName.home),
  statusesByAccount: byParts(versionName.accountStatuses, 0),
  listFeed: byParts(versionName.list, 0),
  listMembers: byParts(versionName.list, 0),
  publicFeeds: byParts(versionName.publicFeed, 0),
  follows: byParts(versionName.viewer, 0),
  followersIndex: byParts(versionName.followers, 0),
  // The target's pending-request count is part of what it sees (verify_credentials).
  followRequests: byParts(versionName.viewer, 0, 1),
  // A block hides the blocker's statuses from the target too.
  blocks: byParts(versionName.viewer, 0, 1),
  mutes: byParts(versionName.viewer, 0),
  lists: byParts(versionName.viewer, 0),
  listMemberships: byParts(versionName.viewer, 1),
  favouriteOf: byParts(versionName.viewer, 0),
  reblogOf: byParts(versionName.viewer, 0),
  bookmarkOf: byParts(versionName.viewer, 0),
  pinOf: byParts(versionName.viewer, 0),
  // A poll's counts are part of its status's rendering; a vote is part of what its voter sees (voted, own_votes).
  polls: (key) => (!Array.isArray(key) ? [] : key[0] === "p" ? [versionName.status(String(key[1]))] : [versionName.viewer(String(key[2]))]),
  // A filter changes what its owner sees; the item index (["i", id]) changes nothing by itself.
  filters: (key) => (Array.isArray(key) && key[0] === "f" ? [versionName.viewer(String(key[1]))] : []),
  // A followed hashtag brings statuses into its follower's home.
  tagChoices: (key) => (Array.isArray(key) && key[0] === "f" ? [versionName.viewer(String(key[1]))] : []),
  // Endorsements, domain blocks and thread mutes all change what their account sees.
  accountChoices: byParts(versionName.viewer, 1),
  customEmojis: () => [versionName.emojis()],
  meta: (key) => (typeof key === "string" && key.startsWith("setting:") ? [versionName.setting(key.slice("setting:".length))] : []),
  moderation: (key) => (Array.isArray(key) && key[0] === "ip_block" ? [versionName.ipBlocks()] : []),
};

/** Keyspaces whose point reads are noted while recording (see recordingReads). */
const READ_RULES: Partial<Record<KeyspaceName, KeyRule>> = {
  customEmojis: () => [versionName.emojis()],
  accounts: byId(versionName.account),
  statuses: byId(versionName.status),
  media: byId(versionName.media),
};

/** What a recording has noted: the versions read, and when the first time-limited record read runs out. */
export interface Reads {
  names: Set<string>;
  /** ms since the epoch; Infinity when nothing read expires */
  until: number;
}

let recording: Reads | null = null;

/** Notes a dependency of what is being recorded (a cache hit that skipped the store read notes its names). */
export function noteRead(name: string): void {
  recording?.names.add(name);
}

/** Notes that what is being recorded changes by itself at `at` (ms) with nothing written. */
export function noteExpiry(at: number): void {
  if (recording && at < recording.until) recording.until = at;
}

/**
 * Runs `fn` (synchronous) and returns what it read: the version names of the statuses and accounts, and of
 * what it noted itself (feeds), and the earliest expiry of a mute it found in force. Nested recordings add
 * to the outer one too.
 */
export function recordingReads<T>(fn: () => T): { result: T; reads: Reads } {
  const outer = recording;
  const reads: Reads = { names: new Set(), until: Infinity };
  recording = reads;
  try {
    return { result: fn(), reads };
  } finally {
    recording = outer;
    if (outer) {
      for (const name of reads.names) outer.names.add(name);
      if (reads.until < outer.until) outer.until = reads.until;
    }
  }
}

/**
 * The versions the running `store.write` callback has bumped already. Readers only see committed states, so
 * one bump per transaction tells every cache; fan-out writing a viewer's home many times in one write then
 * reads and puts its version once, not once per row. Null outside store.write: every write bumps.
 */
let bumpedInWrite: Set<string> | null = null;

/**
 * Runs `fn` (a store.write callback, synchronous, in its own child transaction) with a fresh bump set, and
 * appends what it bumped to the version log (version-log.ts) in the same transaction.
 */
export function bumpingOncePerName<T>(db: LogKeyspaces, fn: () => T): T {
  const outer = bumpedInWrite;
  const bumped = new Set<string>();
  bumpedInWrite = bumped;
  try {
    const result = fn();
    appendToLog(db, [...bumped]);
    return result;
  } finally {
    bumpedInWrite = outer;
  }
}

/** Wraps a keyspace's put and remove (and, for READ_RULES, get) as the rules above say. */
export function watchKeyspace(name: KeyspaceName, keyspace: Database<any, any>, db: LogKeyspaces): void {
  const { versions } = db;
  const writeRule = WRITE_RULES[name];
  if (writeRule) {
    const bump = (key: unknown) => {
      for (const version of writeRule(key)) {
        if (bumpedInWrite) {
          if (bumpedInWrite.has(version)) continue;
          bumpedInWrite.add(version);
        }
        versions.put(version, (versions.get(version) ?? 0) + 1);
        // A write outside store.write (a migration): its own log entry.
        if (!bumpedInWrite) appendToLog(db, [version]);
      }
    };
    const put = keyspace.put.bind(keyspace);
    const remove = keyspace.remove.bind(keyspace);
    keyspace.put = ((key: unknown, ...rest: unknown[]) => {
      bump(key);
      return (put as (...args: unknown[]) => unknown)(key, ...rest);
    }) as typeof keyspace.put;
    keyspace.remove = ((key: unknown, ...rest: unknown[]) => {
      bump(key);
      return (remove as (...args: unknown[]) => unknown)(key, ...rest);
    }) as typeof keyspace.remove;
  }
  const readRule = READ_RULES[name];
  const get = keyspace.get.bind(keyspace) as (...args: unknown[]) => unknown;
  if (readRule) {
    keyspace.get = ((key: unknown, ...rest: unknown[]) => {
      if (recording) for (const version of readRule(key)) recording.names.add(version);
      return get(key, ...rest);
    }) as typeof keyspace.get;
  }
  if (name === "mutes") {
    // A mute with an end stops hiding at that end with nothing written (its clean-up job comes later).
    keyspace.get = ((key: unknown, ...rest: unknown[]) => {
      const mute = get(key, ...rest) as { expiresAt?: number | null } | undefined;
      if (recording && typeof mute?.expiresAt === "number" && mute.expiresAt > Date.now()) noteExpiry(mute.expiresAt);
      return mute;
    }) as typeof keyspace.get;
  }
}

/** Version names with the versions they had, read in one snapshot. */
export interface Versions {
  names: readonly string[];
  /** Null when only the version log vouches for them (mirrorStamp): where it cannot, they count as changed. */
  versions: readonly number[] | null;
  /**
   * The version log position of the snapshot they were read in (version-log.ts); -1 when read inside a
   * write. Moved forward when a later check finds them all unchanged.
   */
  seq: number;
}

const mirrors = new WeakMap<Store["db"], VersionMirror>();

function mirrorOf(store: Store): VersionMirror {
  let mirror = mirrors.get(store.db);
  if (!mirror) mirrors.set(store.db, (mirror = new VersionMirror(store.db)));
  return mirror;
}

/**
 * Makes the next checks compare against `commit`, the environment's last commit id as just read (starting a
 * new read snapshot only when something was committed since the mirror last looked); returns the version
 * log's position there. Values read at that position are current: commits that bumped nothing (the job
 * queue's own bookkeeping) do not move it.
 */
export function syncVersionsTo(store: Store, commit: number): number {
  return mirrorOf(store).syncTo(commit, () => store.freshSnapshot());
}

/** Store.freshSnapshot: the next read starts a new snapshot, and the mirror's position must be read again. */
export function snapshotReset(store: Store): void {
  mirrors.get(store.db)?.snapshotEnded();
}

/** The current versions of `names`, in order (0 for one never bumped). */
export function readVersions(store: Store, names: readonly string[]): Versions {
  const versions = new Array<number>(names.length);
  for (let i = 0; i < names.length; i++) versions[i] = store.db.versions.get(names[i]) ?? 0;
  return { names, versions, seq: insideWrite(store) ? -1 : mirrorOf(store).sync() };
}

/**
 * Do the names still have exactly these versions, in the current read snapshot? Outside writes, asked of
 * this thread's mirror of the version log: one map lookup per name.
 */
export function versionsUnchanged(store: Store, read: Versions): boolean {
  if (insideWrite(store)) return sameVersions(store, read);
  const mirror = mirrorOf(store);
  const head = mirror.sync();
  const known = mirror.unchangedSince(read.names, read.seq, head) ?? sameVersions(store, read);
  // They hold at `head` too: later checks need only look at what changed after it.
  if (known) read.seq = head;
  return known;
}

const keptTiers = new Set<string>();

/** The tiers of the cache index (domain/caches) whose KeptRecords have been made in this thread. */
export function keptRecordTiers(): ReadonlySet<string> {
  return keptTiers;
}

/**
 * Records kept per thread (and per store handle) while their version is unchanged: a hit costs two map
 * lookups and no LMDB read. Absent records are kept too (creating one bumps its version). At most `max` per
 * store, oldest out first; reads inside a write go to the store. `tier`: its name in the cache index.
 */
export class KeptRecords<T> {
  private byStore = new WeakMap<Store, Map<string, { value: T | undefined; seq: number }>>();
  /** Its hits and misses in /metrics (reads inside a write, which bypass it, are neither). */
  private readonly counts: ReturnType<typeof cacheCells>;

  constructor(tier: string, private readonly max: number) {
    keptTiers.add(tier);
    this.counts = cacheCells(tier);
  }

  get(store: Store, id: string, name: string, read: () => T | undefined): T | undefined {
    if (insideWrite(store)) return read();
    let entries = this.byStore.get(store);
    if (!entries) this.byStore.set(store, (entries = new Map()));
    const mirror = mirrorOf(store);
    const head = mirror.sync();
    const kept = entries.get(id);
    if (kept && mirror.unchangedOneSince(name, kept.seq, head)) {
      recording?.names.add(name);
      this.counts.hits.value++;
      return kept.value;
    }
    this.counts.misses.value++;
    const value = read();
    if (kept) entries.delete(id);
    else if (entries.size >= this.max) entries.delete(entries.keys().next().value!);
    entries.set(id, { value, seq: head });
    return value;
  }
}

/**
 * Which of the names were bumped since `read` was taken, and the log position of now (`read` is moved up to
 * it when none was); undefined inside a write or when the mirror cannot tell.
 */
export function changedVersions(store: Store, read: Versions): { changed: string[]; seq: number } | undefined {
  if (insideWrite(store)) return undefined;
  const mirror = mirrorOf(store);
  const head = mirror.sync();
  const changed = mirror.changedSince(read.names, read.seq, head);
  if (!changed) return undefined;
  if (changed.length === 0) read.seq = head;
  return { changed, seq: head };
}

/**
 * `names` as of the current read snapshot, without reading their versions: checks ask the version log's
 * mirror, and count them as changed where it cannot tell. For values rebuilt cheaply when that happens.
 */
export function mirrorStamp(store: Store, names: readonly string[]): Versions {
  return { names, versions: null, seq: insideWrite(store) ? -1 : mirrorOf(store).sync() };
}

function sameVersions(store: Store, { names, versions }: Versions): boolean {
  if (!versions) return false;
  for (let i = 0; i < names.length; i++) {
    if ((store.db.versions.get(names[i]) ?? 0) !== versions[i]) return false;
  }
  return true;
}

/**
 * Inside a write transaction reads see its uncommitted writes, which a throw may still roll back: nothing
 * read there may be cached.
 */
export function insideWrite(store: Store): boolean {
  return !!(store.db.versions as unknown as { env: { writeTxn?: unknown } }).env.writeTxn;
}
