// The main-thread runner: claims due jobs (one write moves them from `jobs` to `jobsClaimed`), hands them
// to an executor (inline, or the worker pool), and records each outcome: done, retry with exponential
// backoff, or dead letter. Guarantees and operations are described in docs/jobs.md.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { Store } from "../store/db.ts";
import {
  buryJob,
  claimJobs,
  claimedJobs,
  completeJob,
  dueJobs,
  jobCounts,
  requeueJob,
  type ClaimedJob,
} from "../store/jobs.ts";
import { EventHub } from "./events.ts";
import { inlineExecutor, type Executor } from "./inline.ts";
import { WorkerPool } from "./pool.ts";
import { enqueueJob, type JobEnqueuer, type JobQueue } from "./queue.ts";
import { DEFAULT_TIMEOUT_MS, loadRegistry, type Outcome } from "./registry.ts";

export interface RunnerOptions {
  /** How often to look for due jobs that nobody announced (delayed ones, ones enqueued by workers). */
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

export function createJobQueue(store: Store, config: Config, options: RunnerOptions = {}): JobQueue {
  const pollMs = options.pollMs ?? 100;
  const backoffBaseMs = options.backoffBaseMs ?? 1000;
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const hub = new EventHub();
  let state: "new" | "running" | "stopping" | "stopped" = "new";
  let paused = false;
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  let executor: Executor | null = null;
  let timeoutMs: (type: string) => number = () => DEFAULT_TIMEOUT_MS;
  let poller: ReturnType<typeof setInterval> | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  /** Claimed jobs of this runner, until their outcome is recorded. */
  const running = new Map<string, { job: ClaimedJob; settled: Promise<void> }>();
  /** Jobs given back at stop(): a late outcome must not touch them. */
  const released = new Set<string>();

  const jobs: JobEnqueuer = {
    enqueue(type, payload, enqueueOptions) {
      const id = enqueueJob(store, type, payload, enqueueOptions);
      // Resolves once the surrounding write has committed, so the runner sees the job when it looks.
      void store.flushed().then(wake, () => {});
      return id;
    },
  };

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

  async function claimDue(): Promise<void> {
    const free = executor!.free();
    if (free <= 0) return;
    const due = dueJobs(store, Date.now(), free);
    if (due.length === 0) return;
    const claimed = await store.write(() => claimJobs(store, due, Date.now(), process.pid));
    for (const job of claimed) dispatch(job);
    if (due.length === free) again = true;
  }

  function dispatch(job: ClaimedJob): void {
    const settled = executor!
      .run(job, timeoutMs(job.type))
      .then((outcome) => record(job, outcome))
      .catch((error) => log.error("could not record a job outcome", { id: job.id, error: String(error) }))
      .finally(() => {
        running.delete(job.id);
        wake();
      });
    running.set(job.id, { job, settled });
  }

  async function record(job: ClaimedJob, outcome: Outcome): Promise<void> {
    if (released.delete(job.id)) return;
    if (outcome.ok) return store.write(() => completeJob(store, job.id));
    const now = Date.now();
    const failed = { ...job, lastError: outcome.error };
    const giveUp = outcome.permanent || job.attempts >= job.maxAttempts;
    const retryAt = now + backoffMs(job.attempts, backoffBaseMs);
    await store.write(() => (giveUp ? buryJob(store, failed, now) : requeueJob(store, { ...failed, runAt: retryAt })));
    const fields = { id: job.id, type: job.type, attempts: job.attempts, error: outcome.error };
    if (giveUp) log.warn("job moved to the dead letters", fields);
    else log.warn("job failed; will retry", { ...fields, retryInMs: retryAt - now });
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
    const left = [...running.values()].map(({ job }) => job);
    if (left.length === 0) return;
    for (const job of left) released.add(job.id);
    const now = Date.now();
    await store.write(() => {
      const stillClaimed = new Set(claimedJobs(store).map((job) => job.id));
      for (const job of left) {
        if (stillClaimed.has(job.id)) requeueJob(store, { ...job, attempts: job.attempts - 1, runAt: now });
      }
    });
    log.info("released running jobs at shutdown", { count: left.length });
  }

  async function waitForRunning(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const all = Promise.all([...running.values()].map((r) => r.settled)).then(() => {});
    await Promise.race([all, deadline]);
    clearTimeout(timer);
  }

  return {
    enqueue: jobs.enqueue,
    start() {
      starting ??= (async () => {
        state = "running";
        const registry = await loadRegistry(config.jobHandlerModules, options.defaultTimeoutMs);
        timeoutMs = registry.timeoutMs;
        await releaseOrphans();
        if (state !== "running") return;
        executor =
          config.jobWorkers > 0
            ? new WorkerPool(config.jobWorkers, config, hub, wake)
            : inlineExecutor(store, config, registry, hub, jobs);
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
        const due = claiming() && dueJobs(store, Date.now(), 1).length > 0;
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
