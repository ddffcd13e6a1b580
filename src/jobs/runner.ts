// The main-thread runner: claims due jobs lane by lane in batches (one write moves them from `jobs` to
// `jobsClaimed`), hands each batch to an executor (inline, or the worker pool), and records the batch's
// outcomes in one write: done, retry with exponential backoff, or dead letter. Everything that may mean
// "there is work" calls wake(): a commit holding new jobs (on any thread), a freed lane slot, the timer for the
// next delayed job, and a slow poll for jobs written by other processes. Guarantees are in docs/jobs.md.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { Store } from "../store/db.ts";
import {
  buryJob, claimJobs, claimedJobs, completeJob, dueJobs, isClaimed, jobCounts, nextRunAt, requeueJob, type ClaimedJob,
} from "../store/jobs.ts";
import { EventHub } from "./events.ts";
import { inlineExecutor, type Executor } from "./inline.ts";
import { LANE_POLICY, LANES, type Lane } from "./lanes.ts";
import { WorkerPool } from "./pool.ts";
import { committedEnqueuer, type JobEnqueuer, type JobQueue } from "./queue.ts";
import { builtInLane, loadRegistry, type Outcome, type Registry } from "./registry.ts";

export interface RunnerOptions {
  /** How often to look for due jobs that no wake-up announced (written by another process, e.g. the CLI). */
  pollMs?: number;
  /** First retry delay; it doubles with every attempt (capped at an hour). */
  backoffBaseMs?: number;
  /** How long stop() waits for running jobs before releasing them. */
  stopGraceMs?: number;
  /** Time limit of job types that do not declare one. */
  defaultTimeoutMs?: number;
}

const MAX_BACKOFF_MS = 3_600_000;

export function backoffMs(attempts: number, baseMs = 1000): number {
  return Math.min(baseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
}

/**
 * Claimed jobs of one lane, cut into batches for the executor: spread evenly over the `slots` that are free
 * (so a few jobs still use every worker), none larger than `size`. A job that failed before runs in a batch
 * of its own, so a job that keeps failing (or crashing its worker) cannot take its batch-mates down with it.
 */
export function intoBatches(jobs: ClaimedJob[], size: number, slots: number): ClaimedJob[][] {
  const batches: ClaimedJob[][] = [];
  const fresh = jobs.filter((job) => job.lastError === null);
  for (const job of jobs) if (job.lastError !== null) batches.push([job]);
  const count = Math.max(Math.ceil(fresh.length / size), Math.min(slots, fresh.length));
  for (let i = 0; i < count; i++) batches.push(fresh.slice(Math.floor((i * fresh.length) / count), Math.floor(((i + 1) * fresh.length) / count)));
  return batches;
}

/** The longest delay setTimeout takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createJobQueue(store: Store, config: Config, options: RunnerOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 1000;
  const backoffBaseMs = options.backoffBaseMs ?? 1000;
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const hub = new EventHub();
  let state: "new" | "running" | "stopping" | "stopped" = "new";
  let paused = false;
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  let executor: Executor | null = null;
  let registry: Registry | null = null;
  let poller: ReturnType<typeof setInterval> | null = null;
  let delayed: { at: number; timer: ReturnType<typeof setTimeout> } | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  /** Batches of this runner, until their outcomes are recorded. */
  const running = new Set<{ jobs: ClaimedJob[]; settled: Promise<void> }>();

  const jobs: JobEnqueuer = committedEnqueuer(store, (type) => registry?.lane(type) ?? builtInLane(type), wake);

  const claiming = () => state === "running" && !paused && executor !== null;

  function wake(): void {
    if (!claiming()) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        await claimDue();
      } while (again && claiming());
    })()
      .catch((error) => log.error("job runner failed to claim jobs", { error: String(error) }))
      .finally(() => (pumping = null));
  }

  /** One write claims, for every lane with free slots, up to a full batch per slot. */
  async function claimDue(): Promise<void> {
    const wanted = LANES.map((lane) => ({ lane, slots: executor!.free(lane), limit: 0 }))
      .filter((w) => w.slots > 0)
      .map((w) => ({ ...w, limit: w.slots * LANE_POLICY[w.lane].batch }));
    if (wanted.length === 0) return;
    const claimed = await store.write(() => {
      const now = Date.now();
      return wanted.map(({ lane, slots, limit }) => {
        const jobs = claimJobs(store, dueJobs(store, lane, now, limit), now, process.pid);
        if (jobs.length === limit) again = true;
        return { lane, slots, jobs };
      });
    });
    for (const { lane, slots, jobs } of claimed) for (const batch of intoBatches(jobs, LANE_POLICY[lane].batch, slots)) dispatch(lane, batch);
    armDelayed();
  }

  /** Wakes the runner when the earliest job that is not due yet becomes due. */
  function armDelayed(): void {
    const now = Date.now();
    let at = Infinity;
    for (const lane of LANES) {
      const next = nextRunAt(store, lane);
      if (next !== null && next > now) at = Math.min(at, next);
    }
    if (at === Infinity || (delayed && delayed.at <= at)) return;
    if (delayed) clearTimeout(delayed.timer);
    // Timers take at most 2^31-1 ms (~24.8 days): a longer delay (a 30-day mute, a suspension's retention)
    // would fire at once, over and over. Waking early is harmless: the next pump schedules again.
    const timer = setTimeout(() => {
      delayed = null;
      wake();
    }, Math.min(at - now, MAX_TIMER_MS));
    delayed = { at, timer };
  }

  function dispatch(lane: Lane, batch: ClaimedJob[]): void {
    const entry = {
      jobs: batch,
      settled: executor!
        .run(lane, batch)
        .then((outcomes) => record(batch, outcomes))
        .catch((error) => log.error("could not record job outcomes", { count: batch.length, error: String(error) }))
        .finally(() => {
          running.delete(entry);
          wake();
        }),
    };
    running.add(entry);
  }

  /** One write for the whole batch. A job no longer claimed (released at shutdown) is left alone. */
  async function record(batch: ClaimedJob[], outcomes: Outcome[]): Promise<void> {
    const failures: Array<{ job: ClaimedJob; error: string; giveUp: boolean; retryInMs: number }> = [];
    await store.write(() => {
      const now = Date.now();
      batch.forEach((job, i) => {
        const outcome = outcomes[i]!;
        if (!isClaimed(store, job.id)) return;
        if (outcome.ok) return completeJob(store, job.id);
        const failed = { ...job, lastError: outcome.error };
        if (outcome.uncounted) return requeueJob(store, { ...failed, attempts: job.attempts - 1, runAt: now });
        const giveUp = outcome.permanent || job.attempts >= job.maxAttempts;
        const retryInMs = backoffMs(job.attempts, backoffBaseMs);
        if (giveUp) buryJob(store, failed, now);
        else requeueJob(store, { ...failed, runAt: now + retryInMs });
        failures.push({ job, error: outcome.error, giveUp, retryInMs });
      });
    });
    for (const { job, error, giveUp, retryInMs } of failures) {
      const fields = { id: job.id, type: job.type, attempts: job.attempts, error };
      if (giveUp) log.warn("job moved to the dead letters", fields);
      else log.warn("job failed; will retry", { ...fields, retryInMs });
    }
    if (failures.length) armDelayed();
  }

  /** Claims left by a process that is gone (killed, crashed) go back to the queue; see docs/jobs.md. */
  async function releaseOrphans(): Promise<void> {
    const now = Date.now();
    const count = await store.write(() => {
      const orphans = claimedJobs(store).filter((job) => job.owner === process.pid || !processAlive(job.owner));
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
  async function releaseRunning(): Promise<void> {
    const left = [...running].flatMap((entry) => entry.jobs);
    if (left.length === 0) return;
    const now = Date.now();
    await store.write(() => {
      for (const job of left) if (isClaimed(store, job.id)) requeueJob(store, { ...job, attempts: job.attempts - 1, runAt: now });
    });
    log.info("released running jobs at shutdown", { count: left.length });
  }

  async function waitForRunning(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const all = Promise.all([...running].map((r) => r.settled)).then(() => {});
    await Promise.race([all, deadline]);
    clearTimeout(timer);
  }

  const anyDue = () => {
    const now = Date.now();
    return LANES.some((lane) => dueJobs(store, lane, now, 1).length > 0);
  };

  return {
    enqueue: jobs.enqueue,
    start() {
      starting ??= (async () => {
        state = "running";
        const loaded = await loadRegistry(config.jobHandlerModules, options.defaultTimeoutMs);
        registry = loaded;
        await releaseOrphans();
        if (state !== "running") return;
        executor =
          config.jobWorkers > 0
            ? new WorkerPool(config.jobWorkers, config, hub, loaded.timeoutMs, wake)
            : inlineExecutor({ store, config, registry: loaded, jobs, emit: (event) => hub.emit(event) });
        poller = setInterval(wake, pollMs);
        wake();
      })();
      return starting;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      wake();
    },
    async drain() {
      await starting?.catch(() => {});
      for (;;) {
        const due = claiming() && anyDue();
        if (running.size === 0 && !pumping && !due) return;
        if (due) wake();
        await Bun.sleep(5);
      }
    },
    stop() {
      stopping ??= (async () => {
        if (state === "new") {
          state = "stopped";
          return;
        }
        state = "stopping";
        if (poller) clearInterval(poller);
        if (delayed) clearTimeout(delayed.timer);
        await starting?.catch(() => {});
        await pumping;
        await waitForRunning(stopGraceMs);
        await releaseRunning();
        await executor?.close();
        state = "stopped";
      })();
      return stopping;
    },
    onEvent: (listener) => hub.on(listener),
    stats: () => jobCounts(store),
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
