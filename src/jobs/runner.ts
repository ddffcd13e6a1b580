// The main-thread runner: claims due jobs lane by lane (one write moves them from `jobs` to `jobsClaimed`),
// hands them to an executor (inline, or the worker pool), and records outcomes as jobs finish: done, retry
// with exponential backoff, or dead letter. Everything that may mean "there is work" calls wake(): a commit
// holding new jobs (on any thread), a job finishing (its outcome to record, its place free), the timer for the
// next delayed job, and a slow poll for jobs written by other processes. One wake-up is one write that records
// what finished and claims what fits. Guarantees are in docs/jobs.md.
import { processAlive } from "../lib/process-alive.ts";
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { Store } from "../store/db.ts";
import {
  buryJob,
  claimJobs,
  claimedJobs,
  completeJob,
  dueJobs,
  isClaimed,
  jobCounts,
  nextRunAt,
  requeueJob,
} from "../store/jobs.ts";
import { EventHub } from "./events.ts";
import { inlineExecutor, type Executor, type Finished } from "./inline.ts";
import { FAIR_SCAN, FairShare } from "./fair.ts";
import { LANE_POLICY, LANES, type Lane } from "./lanes.ts";
import { WorkerPool } from "./pool.ts";
import { committedEnqueuer, type JobEnqueuer, type JobQueue } from "./queue.ts";
import { builtInLane, loadRegistry, type JobTable, type Registry } from "./registry.ts";
import type { ClaimedJob, JobRecord } from "../model/jobs.ts";

export interface RunnerOptions {
  /** How often to look for due jobs that no wake-up announced (written by another process, e.g. the CLI). */
  pollMs?: number;
  /** First retry delay; it doubles with every attempt (capped at an hour). */
  backoffBaseMs?: number;
  /** How long stop() waits for running jobs before releasing them. */
  stopGraceMs?: number;
  /** Time limit of job types that do not declare one. */
  defaultTimeoutMs?: number;
  /** Told of every failed attempt once its outcome is recorded (the composition root counts them: /metrics). */
  observer?: JobObserver;
}

export interface JobObserver {
  /** `deadLettered`: given up, moved to the dead letters; otherwise it will be retried. */
  failed(type: string, deadLettered: boolean): void;
}

const MAX_BACKOFF_MS = 3_600_000;

export function backoffMs(attempts: number, baseMs = 1000): number {
  return Math.min(baseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
}

/** The longest delay setTimeout takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A queue running the job types of `table` (given by the composition root, src/compose.ts). */
export function createJobQueue(store: Store, config: Config, table: JobTable, options: RunnerOptions = {}): JobQueue {
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
  /** Jobs this runner claimed, until their outcomes are recorded (or released at shutdown). */
  const held = new Map<string, ClaimedJob>();
  /** Outcomes reported by the executor, for the next write. */
  const finished: Finished[] = [];
  const fair = new FairShare();

  const jobs: JobEnqueuer = committedEnqueuer(store, (type) => registry?.lane(type) ?? builtInLane(table, type), wake);

  const claiming = () => state === "running" && !paused && executor !== null;

  function wake(): void {
    if (!executor || state === "stopped") return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      // Whatever wakes the runner within one turn (jobs finishing together, commits) is served by one write.
      await new Promise((resolve) => setImmediate(resolve));
      do {
        again = false;
        await pump();
      } while (again);
    })()
      .catch((error) => {
        again = false;
        log.error("job runner failed to record or claim jobs", { error: String(error) });
      })
      .finally(() => {
        pumping = null;
        // A wake-up that came after the loop's last look.
        if (again) wake();
      });
  }

  function report(done: Finished[]): void {
    for (const entry of done) if (held.has(entry.job.id)) finished.push(entry);
    wake();
  }

  /**
   * One write records the outcomes reported so far and claims, for every lane with free places, as many due
   * jobs as fit (oldest first), counting an attempt and noting this process id. A job no longer claimed
   * (released at shutdown) is left alone.
   */
  async function pump(): Promise<void> {
    const outcomes = finished.splice(0);
    const wanted = claiming() ? LANES.map((lane) => ({ lane, limit: executor!.free(lane) })).filter((w) => w.limit > 0) : [];
    if (outcomes.length === 0 && wanted.length === 0) return;
    const failures: Array<{ job: ClaimedJob; error: string; giveUp: boolean; retryInMs: number }> = [];
    const claimed = await store
      .write(() => {
        const now = Date.now();
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
        const done = new Set(outcomes.map(({ job }) => job.id));
        return wanted.map(({ lane, limit }) => {
          const jobs = claimJobs(store, claimable(lane, now, limit, done), now, process.pid);
          if (jobs.length === limit) again = true;
          return { lane, jobs };
        });
      })
      .finally(() => {
        for (const { job } of outcomes) held.delete(job.id);
      });
    for (const { lane, jobs } of claimed) {
      if (jobs.length === 0) continue;
      for (const job of jobs) held.set(job.id, job);
      executor!.run(lane, jobs);
    }
    for (const { job, error, giveUp, retryInMs } of failures) {
      options.observer?.failed(job.type, giveUp);
      const fields = { id: job.id, type: job.type, attempts: job.attempts, error };
      if (giveUp) log.warn("job moved to the dead letters", fields);
      else log.warn("job failed; will retry", { ...fields, retryInMs });
    }
    if (state === "running") armDelayed();
  }

  /**
   * The due jobs of `lane` to claim: the oldest, or in a lane with a per-group limit a fair share (fair.ts),
   * counting the groups of the jobs still running (those whose outcomes this write records, `done`, are not).
   */
  function claimable(lane: Lane, now: number, limit: number, done: ReadonlySet<string>): JobRecord[] {
    const perGroup = LANE_POLICY[lane].perGroup;
    if (perGroup === undefined) return dueJobs(store, lane, now, limit);
    const running = new Map<string, number>();
    for (const job of held.values()) {
      if (job.lane === lane && job.group !== undefined && !done.has(job.id)) running.set(job.group, (running.get(job.group) ?? 0) + 1);
    }
    return fair.pick(dueJobs(store, lane, now, FAIR_SCAN), running, perGroup, limit);
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
    const left = [...held.values()];
    // Their outcomes, if they still come, are no longer this runner's to record.
    held.clear();
    if (left.length === 0) return;
    const now = Date.now();
    await store.write(() => {
      for (const job of left) if (isClaimed(store, job.id)) requeueJob(store, { ...job, attempts: job.attempts - 1, runAt: now });
    });
    log.info("released running jobs at shutdown", { count: left.length });
  }

  async function waitForRunning(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (held.size > 0 && Date.now() < deadline) await Bun.sleep(10);
    await pumping;
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
        const loaded = await loadRegistry(table, config.jobHandlerModules, options.defaultTimeoutMs);
        registry = loaded;
        await releaseOrphans();
        if (state !== "running") return;
        executor =
          config.jobWorkers > 0
            ? new WorkerPool(config.jobWorkers, table.spawnWorker, config, hub, loaded.timeoutMs, report, wake)
            : inlineExecutor({ store, config, registry: loaded, jobs, emit: (event) => hub.emit(event) }, report);
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
        if (held.size === 0 && !pumping && !due) return;
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
        await pumping;
        state = "stopped";
      })();
      return stopping;
    },
    onEvent: (listener) => hub.on(listener),
    stats: () => jobCounts(store),
  };
}
