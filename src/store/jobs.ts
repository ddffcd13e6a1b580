// The durable job queue's records: due jobs by [runAt, jobId], claimed jobs by id, dead letters by id.
// A job lives in exactly one of the three keyspaces; every move between them is one write transaction.
import type { Store } from "./db.ts";

export interface JobRecord {
  v: 1;
  id: string;
  type: string;
  payload: unknown;
  /** Attempts started so far (counted when claimed, so a job that kills its process still runs out). */
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  runAt: number;
  lastError: string | null;
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

function plain(job: JobRecord): JobRecord {
  const { v, id, type, payload, attempts, maxAttempts, createdAt, runAt, lastError } = job;
  return { v, id, type, payload, attempts, maxAttempts, createdAt, runAt, lastError };
}

/** Inside a write. */
export function putJob(store: Store, job: JobRecord): void {
  store.db.jobs.put([job.runAt, job.id], plain(job));
}

/** Jobs whose time has come, oldest first. */
export function dueJobs(store: Store, now: number, limit: number): JobRecord[] {
  const out: JobRecord[] = [];
  for (const { value } of store.db.jobs.getRange({ start: [0], end: [now, "\uffff"], limit })) out.push(value);
  return out;
}

/** Waiting jobs (due or delayed) in the order they will run. */
export function pendingJobs(store: Store, limit = 100): JobRecord[] {
  return [...store.db.jobs.getRange({ limit })].map((r) => r.value as JobRecord);
}

/** Inside a write: moves the jobs that are still waiting to the claimed keyspace, counting an attempt. */
export function claimJobs(store: Store, jobs: JobRecord[], at: number, owner: number): ClaimedJob[] {
  const claimed: ClaimedJob[] = [];
  for (const job of jobs) {
    if (!store.db.jobs.doesExist([job.runAt, job.id])) continue; // another runner took it
    store.db.jobs.remove([job.runAt, job.id]);
    const record: ClaimedJob = { ...plain(job), attempts: job.attempts + 1, claimedAt: at, owner };
    store.db.jobsClaimed.put(job.id, record);
    claimed.push(record);
  }
  return claimed;
}

/** Inside a write: the job finished. */
export function completeJob(store: Store, jobId: string): void {
  store.db.jobsClaimed.remove(jobId);
}

/** Inside a write: a claimed job goes back to the queue (retry after a failure, or release at shutdown). */
export function requeueJob(store: Store, job: JobRecord): void {
  store.db.jobsClaimed.remove(job.id);
  putJob(store, job);
}

/** Inside a write: gave up; the job is kept for admins with its last error. */
export function buryJob(store: Store, job: JobRecord, at: number): void {
  store.db.jobsClaimed.remove(job.id);
  const dead: DeadJob = { ...plain(job), diedAt: at };
  store.db.jobsDead.put(job.id, dead);
}

/** All claimed jobs unless `limit` is given (there are at most a few per running worker). */
export function claimedJobs(store: Store, limit?: number): ClaimedJob[] {
  return [...store.db.jobsClaimed.getRange({ limit })].map((r) => r.value as ClaimedJob);
}

export function deadJobs(store: Store, limit = 100): DeadJob[] {
  return [...store.db.jobsDead.getRange({ limit })].map((r) => r.value as DeadJob);
}

export function jobCounts(store: Store): JobCounts {
  return {
    pending: store.db.jobs.getCount(),
    claimed: store.db.jobsClaimed.getCount(),
    dead: store.db.jobsDead.getCount(),
  };
}
