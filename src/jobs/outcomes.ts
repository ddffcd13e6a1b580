// The job runner's writes to the store (runner.ts): recording what finished (done, retry with exponential
// backoff, dead letter) and handing claims back to the queue, from a process that is gone or at shutdown.
// Guarantees are in docs/jobs.md.
import { processAlive } from "../lib/process-alive.ts";
import { log } from "../lib/log.ts";
import type { Store } from "../store/db.ts";
import { buryJob, claimedJobs, completeJob, isClaimed, requeueJob } from "../store/jobs.ts";
import type { Finished } from "./inline.ts";
import type { ClaimedJob } from "../model/jobs.ts";

const MAX_BACKOFF_MS = 3_600_000;

export function backoffMs(attempts: number, baseMs = 1000): number {
  return Math.min(baseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
}

export interface JobObserver {
  /** `deadLettered`: given up, moved to the dead letters; otherwise it will be retried. */
  failed(type: string, deadLettered: boolean): void;
}

/** A counted failed attempt: retried in `retryInMs`, or given up (`giveUp`: moved to the dead letters). */
export interface Failure {
  job: ClaimedJob;
  error: string;
  giveUp: boolean;
  retryInMs: number;
}

/**
 * Inside a write: records the outcomes of finished jobs still claimed (a job released at shutdown is left
 * alone). An uncounted failure goes back due now with its attempt given back. Returns the counted failures.
 */
export function recordOutcomes(store: Store, outcomes: readonly Finished[], now: number, backoffBaseMs: number): Failure[] {
  const failures: Failure[] = [];
  for (const { job, outcome } of outcomes) {
    if (!isClaimed(store, job.id)) continue;
    if (outcome.ok) {
      completeJob(store, job.id);
      continue;
    }
    const failed = { ...job, lastError: outcome.error };
    if (outcome.uncounted) {
      requeueJob(store, { ...failed, attempts: job.attempts - 1, runAt: now });
      continue;
    }
    const giveUp = outcome.permanent || job.attempts >= job.maxAttempts;
    const retryInMs = backoffMs(job.attempts, backoffBaseMs);
    if (giveUp) buryJob(store, failed, now);
    else requeueJob(store, { ...failed, runAt: now + retryInMs });
    failures.push({ job, error: outcome.error, giveUp, retryInMs });
  }
  return failures;
}

/** After the write: tells the observer and the log of each counted failure. */
export function reportFailures(failures: readonly Failure[], observer: JobObserver | undefined): void {
  for (const { job, error, giveUp, retryInMs } of failures) {
    observer?.failed(job.type, giveUp);
    const fields = { id: job.id, type: job.type, attempts: job.attempts, error };
    if (giveUp) log.warn("job moved to the dead letters", fields);
    else log.warn("job failed; will retry", { ...fields, retryInMs });
  }
}

/** Claims left by a process that is gone (killed, crashed) go back to the queue; see docs/jobs.md. */
export async function releaseOrphans(store: Store): Promise<void> {
  const now = Date.now();
  const orphansNow = () => claimedJobs(store).filter((job) => job.owner === process.pid || !processAlive(job.owner));
  // Usually there are none: then nothing is written (no sync at each start).
  if (orphansNow().length === 0) return;
  const count = await store.write(() => {
    const orphans = orphansNow();
    for (const job of orphans) {
      const interrupted = { ...job, lastError: job.lastError ?? "interrupted: its process stopped" };
      if (job.attempts >= job.maxAttempts) buryJob(store, interrupted, now);
      else requeueJob(store, { ...interrupted, runAt: now });
    }
    return orphans.length;
  });
  if (count) log.warn("released jobs claimed by a stopped process", { count });
}

/** At shutdown: unfinished jobs go back to the queue, due now, without counting the interrupted attempt. */
export async function releaseRunning(store: Store, left: readonly ClaimedJob[]): Promise<void> {
  if (left.length === 0) return;
  const now = Date.now();
  await store.write(() => {
    for (const job of left) if (isClaimed(store, job.id)) requeueJob(store, { ...job, attempts: job.attempts - 1, runAt: now });
  });
  log.info("released running jobs at shutdown", { count: left.length });
}
