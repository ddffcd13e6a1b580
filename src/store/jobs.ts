// The durable job queue's records: waiting jobs by [lane, runAt, jobId], claimed jobs by id, dead letters by
// id. A job lives in exactly one of the three keyspaces; every move between them happens inside a write.
import { END, type Store } from "./handle.ts";
import type { ClaimedJob, DeadJob, JobCounts, JobRecord, Lane } from "../model/jobs.ts";

export const LANES: readonly Lane[] = ["realtime", "default", "index", "network", "backfill", "media", "remote"];

function plain(job: JobRecord): JobRecord {
  const { v, id, type, lane, payload, attempts, maxAttempts, createdAt, runAt, lastError, group } = job;
  return { v, id, type, lane, payload, attempts, maxAttempts, createdAt, runAt, lastError, ...(group !== undefined && { group }) };
}

const keyOf = (job: JobRecord) => [job.lane, job.runAt, job.id];

/** Inside a write. */
export function putJob(store: Store, job: JobRecord): void {
  store.db.jobs.put(keyOf(job), plain(job));
}

/** A lane's jobs whose time has come, oldest first. */
export function dueJobs(store: Store, lane: Lane, now: number, limit: number): JobRecord[] {
  const out: JobRecord[] = [];
  for (const { value } of store.db.jobs.getRange({ start: [lane, 0], end: [lane, now, END], limit })) out.push(value);
  return out;
}

/** When the lane's next waiting job is due (due or not), or null when the lane is empty. */
export function nextRunAt(store: Store, lane: Lane): number | null {
  for (const key of store.db.jobs.getKeys({ start: [lane, 0], end: [lane, END], limit: 1 })) return (key as [Lane, number])[1];
  return null;
}

/** Waiting jobs (due or delayed), lane by lane, each lane in the order it will run. */
export function pendingJobs(store: Store, limit = 100): JobRecord[] {
  return [...store.db.jobs.getRange({ limit })].map((r) => r.value as JobRecord);
}

/** Inside a write: moves the jobs that are still waiting to the claimed keyspace, counting an attempt. */
export function claimJobs(store: Store, jobs: JobRecord[], at: number, owner: number): ClaimedJob[] {
  const claimed: ClaimedJob[] = [];
  for (const job of jobs) {
    if (!store.db.jobs.removeSync(keyOf(job))) continue; // another runner took it
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

/** Is this job still claimed (not completed, retried or released by someone else)? */
export function isClaimed(store: Store, jobId: string): boolean {
  return store.db.jobsClaimed.doesExist(jobId);
}

/** All claimed jobs unless `limit` is given (there are at most a few batches per running worker). */
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

/**
 * Inside a write (migration 2): jobs written before lanes existed, keyed [runAt, jobId] and without a lane,
 * move to [lane, runAt, jobId] in the `default` lane (the store does not know job types; every lane runs).
 */
export function moveJobsIntoLanes(store: Store): void {
  const laned = (record: Omit<JobRecord, "v" | "lane">) => ({ ...record, v: 2 as const, lane: "default" as Lane });
  const old = [...store.db.jobs.getRange({ start: [0], end: ["", 0] })].filter(({ key }) => typeof key[0] === "number");
  for (const { key, value } of old) {
    store.db.jobs.remove(key);
    putJob(store, laned(value));
  }
  for (const keyspace of [store.db.jobsClaimed, store.db.jobsDead]) {
    for (const { key, value } of [...keyspace.getRange({})]) if (typeof key === "string" && !value.lane) keyspace.put(key, laned(value));
  }
}
