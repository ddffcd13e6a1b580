// Snowflake-style ids: (unix_ms << 16) | 16 low bits, rendered as fixed-width decimal strings so that string
// order is time order. The low bits are a 5-bit process tag, a 7-bit per-thread sequence and a 4-bit thread
// tag, so that no two threads of the processes on one data directory mint the same id in the same
// millisecond: the main thread (0) and the job workers (1–15, given by the job pool: jobs/pool.ts) differ by
// thread tag, and processes by process tag
// (WARREN_ID_TAG): a supervisor's server processes 1–15 (src/cluster/supervisor.ts, no two live ones alike),
// a lone server 1 (src/main.ts), each CLI command one of 16–31 it claims for as long as it runs
// (lib/cli-id-tag.ts); 0 is for processes that mint ids and claim nothing (tests, bench scripts).
// A thread that mints more than 128 ids in one millisecond borrows the next one.
import { isMainThread, threadId, workerData } from "node:worker_threads";

export const ID_WIDTH = 18;
const MAX_ID = "9".repeat(ID_WIDTH);
/** The most job worker threads one process runs: each has a thread tag of its own (1–15; the main thread 0). */
export const MAX_JOB_WORKERS = 15;
/** The lowest tag from 1 to `last` that none of `taken` has: for the next process or worker thread started. */
export function freeIdTag(taken: Iterable<number>, last: number, what: string): number {
  const used = new Set(taken);
  for (let tag = 1; tag <= last; tag++) if (!used.has(tag)) return tag;
  throw new Error(`more than ${last} ${what} at once`);
}

/** What a worker thread is started with to mint ids with its tag (the job pool gives each live worker its own). */
export const idThreadTagData = (tag: number) => ({ idThreadTag: tag });

function threadTag(): number {
  if (isMainThread) return 0;
  const given = (workerData as { idThreadTag?: unknown } | null)?.idThreadTag;
  return Number.isInteger(given) && (given as number) >= 1 && (given as number) <= MAX_JOB_WORKERS ? (given as number) : threadId % 16;
}
const THREAD_TAG = BigInt(threadTag());

/** The environment variable naming this process's tag. */
export const ID_TAG_ENV = "WARREN_ID_TAG";
/** Process tags 1..SERVER_ID_TAGS - 1 are for a supervisor's processes. */
export const SERVER_ID_TAGS = 16;
/** The process tags CLI commands claim. */
export const CLI_ID_TAGS = { first: 16, last: 31 } as const;
const PROCESS_TAGS = 32;
const SEQUENCE_MASK = 0x7f;
/** Read at the first id, so that src/main.ts may set it for a lone server before anything is minted. */
let processTagBits: bigint | undefined;

function processTag(raw: string | undefined): number {
  const tag = Number(raw);
  return Number.isInteger(tag) && tag >= 0 && tag < PROCESS_TAGS ? tag : 0;
}

let lastMs = 0;
let sequence = 0;

export function newId(now: number = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    sequence = (sequence + 1) & SEQUENCE_MASK;
    if (sequence === 0) ms = lastMs + 1; // 128 ids in one ms: borrow the next millisecond
  } else {
    sequence = 0;
  }
  lastMs = ms;
  processTagBits ??= BigInt(processTag(process.env[ID_TAG_ENV])) << 11n;
  const value = (BigInt(ms) << 16n) | processTagBits | (BigInt(sequence) << 4n) | THREAD_TAG;
  return value.toString().padStart(ID_WIDTH, "0");
}

/** The smallest id of a given millisecond: lets a time be used as a cursor. */
export function idAtTime(ms: number): string {
  return (BigInt(ms) << 16n).toString().padStart(ID_WIDTH, "0");
}

/** The id just below `id` (a cursor for "this id and newer", as since_id is "newer than"). */
export function idBefore(id: string): string {
  return (BigInt(id) - 1n).toString().padStart(ID_WIDTH, "0");
}

/** Normalises a client-supplied id or cursor to the stored form, or null when it is not an id at all. */
export function normaliseId(raw: unknown): string | null {
  if (typeof raw !== "string" && typeof raw !== "number") return null;
  const text = String(raw).trim();
  if (!/^\d{1,30}$/.test(text)) return null;
  const digits = text.replace(/^0+(?=\d)/, "");
  if (digits.length > ID_WIDTH) return MAX_ID;
  return digits.padStart(ID_WIDTH, "0");
}

/** Ids are shown to clients without the padding, as Mastodon's integers would be. */
export function publicId(id: string): string {
  return id.replace(/^0+(?=\d)/, "");
}
