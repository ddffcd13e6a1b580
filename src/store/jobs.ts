// The durable job queue's records: due jobs by [runAt, jobId], claimed jobs, dead letters.
import type { Store } from "./db.ts";

export interface JobRecord {
  v: 1;
  id: string;
  type: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  createdAt: number;
  runAt: number;
  lastError: string | null;
}

/** Inside a write. */
export function putJob(store: Store, job: JobRecord): void {
  store.db.jobs.put([job.runAt, job.id], job);
}

/** Due jobs, oldest first. */
export function dueJobs(store: Store, now: number, limit: number): JobRecord[] {
  const out: JobRecord[] = [];
  for (const { value } of store.db.jobs.getRange({ start: [0], end: [now, "\uffff"], limit })) out.push(value as JobRecord);
  return out;
}

export function pendingJobCount(store: Store): number {
  return store.db.jobs.getCount();
}

/** Inside a write: moves a due job to the claimed keyspace; false if another runner took it. */
export function claimJob(store: Store, job: JobRecord, at: number): boolean {
  if (!store.db.jobs.doesExist([job.runAt, job.id])) return false;
  store.db.jobs.remove([job.runAt, job.id]);
  store.db.jobsClaimed.put(job.id, { ...job, claimedAt: at });
  return true;
}

/** Inside a write: the job finished. */
export function completeJob(store: Store, jobId: string): void {
  store.db.jobsClaimed.remove(jobId);
}

/** Inside a write: back to the due queue (retry with a later runAt, or release at shutdown/restart). */
export function requeueJob(store: Store, job: JobRecord): void {
  store.db.jobsClaimed.remove(job.id);
  putJob(store, job);
}

/** Inside a write: gave up. */
export function buryJob(store: Store, job: JobRecord, at: number): void {
  store.db.jobsClaimed.remove(job.id);
  store.db.jobsDead.put(job.id, { ...job, diedAt: at });
}

export function claimedJobs(store: Store): JobRecord[] {
  return [...store.db.jobsClaimed.getRange({})].map((r) => r.value as JobRecord);
}

export function deadJobs(store: Store): JobRecord[] {
  return [...store.db.jobsDead.getRange({})].map((r) => r.value as JobRecord);
}
