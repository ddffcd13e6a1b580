// Jobs as the queue stores them.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

/** Which share of the workers a job waits for; see src/jobs/lanes.ts and docs/jobs.md. */
export type Lane = "realtime" | "default" | "index" | "network" | "backfill" | "media" | "remote";

export interface JobRecord {
  v: 2;
  id: string;
  type: string;
  lane: Lane;
  payload: unknown;
  /** Attempts started so far (counted when claimed, so a job that kills its process still runs out). */
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  runAt: number;
  lastError: string | null;
  /** Whose work it is, in a lane that shares fairly between groups (src/jobs/fair.ts); absent elsewhere. */
  group?: string;
}

export interface ClaimedJob extends JobRecord {
  claimedAt: number;
  /** Process id of the runner that claimed it: claims of a dead process are released at start-up. */
  owner: number;
}

export interface DeadJob extends JobRecord {
  diedAt: number;
}

export interface JobCounts {
  pending: number;
  claimed: number;
  dead: number;
}
