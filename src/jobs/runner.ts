// The main-thread runner: claims due jobs lane by lane (one write moves them from `jobs` to `jobsClaimed`),
// hands them to an executor (inline, or the worker pool), and records outcomes as jobs finish: done, retry
// with exponential backoff, or dead letter (outcomes.ts). Everything that may mean "there is work" calls
// wake(): a commit holding new jobs (on any thread), a job finishing (its outcome to record, its place free),
// the timer for the next delayed job, and a slow poll for jobs written by other processes. One wake-up is one
// write that records what finished and claims what fits. Guarantees are in docs/jobs.md.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { Store } from "../store/db.ts";
import { claimJobs, dueJobs, jobCounts, nextRunAt } from "../store/jobs.ts";
import { EventHub } from "./events.ts";
import { inlineExecutor, type Executor, type Finished } from "./inline.ts";
import { FAIR_SCAN, FairShare } from "./fair.ts";
import { LANE_POLICY, LANES, type Lane } from "./lanes.ts";
import { recordOutcomes, releaseOrphans, releaseRunning, reportFailures, type JobObserver } from "./outcomes.ts";
import { WorkerPool } from "./pool.ts";
import { committedEnqueuer, type JobEnqueuer, type JobQueue } from "./queue.ts";
import { builtInLane, loadRegistry, type JobTable, type Registry } from "./registry.ts";
import type { ClaimedJob, JobRecord } from "../model/jobs.ts";

export type { JobObserver } from "./outcomes.ts";

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

/** The longest delay setTimeout takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A queue running the job types of `table` (given by the composition root, src/compose.ts). */
export function createJobQueue(store: Store, config: Config, table: JobTable, options: RunnerOptions = {}): JobQueue {
  const runner = new JobRunner(store, config, table, options);
  return {
    enqueue: runner.jobs.enqueue,
    start: () => runner.start(),
    pause: () => runner.pause(),
    resume: () => runner.resume(),
    drain: () => runner.drain(),
    stop: () => runner.stop(),
    onEvent: (listener) => runner.hub.on(listener),
    stats: () => jobCounts(store),
  };
}

class JobRunner {
  readonly hub = new EventHub();
  readonly jobs: JobEnqueuer;
  private state: "new" | "running" | "stopping" | "stopped" = "new";
  private paused = false;
  private starting: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private executor: Executor | null = null;
  private registry: Registry | null = null;
  private poller: ReturnType<typeof setInterval> | null = null;
  private delayed: { at: number; timer: ReturnType<typeof setTimeout> } | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  /** Jobs this runner claimed, until their outcomes are recorded (or released at shutdown). */
  private readonly held = new Map<string, ClaimedJob>();
  /** Outcomes reported by the executor, for the next write. */
  private readonly finished: Finished[] = [];
  private readonly fair = new FairShare();

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly table: JobTable,
    private readonly options: RunnerOptions,
  ) {
    this.jobs = committedEnqueuer(store, (type) => this.registry?.lane(type) ?? builtInLane(table, type), this.wake);
  }

  private claiming(): boolean {
    return this.state === "running" && !this.paused && this.executor !== null;
  }

  /** Runs a pump soon, or once more after the one under way (an arrow: it is handed out as a callback). */
  private readonly wake = (): void => {
    if (!this.executor || this.state === "stopped") return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = (async () => {
      // Whatever wakes the runner within one turn (jobs finishing together, commits) is served by one write.
      await new Promise((resolve) => setImmediate(resolve));
      do {
        this.again = false;
        await this.pump();
      } while (this.again);
    })()
      .catch((error) => {
        this.again = false;
        log.error("job runner failed to record or claim jobs", { error: String(error) });
      })
      .finally(() => {
        this.pumping = null;
        // A wake-up that came after the loop's last look.
        if (this.again) this.wake();
      });
  };

  private readonly report = (done: Finished[]): void => {
    for (const entry of done) if (this.held.has(entry.job.id)) this.finished.push(entry);
    this.wake();
  };

  /**
   * One write records the outcomes reported so far and claims, for every lane with free places, as many due
   * jobs as fit (oldest first), counting an attempt and noting this process id.
   */
  private async pump(): Promise<void> {
    const outcomes = this.finished.splice(0);
    const executor = this.executor!;
    const wanted = this.claiming() ? LANES.map((lane) => ({ lane, limit: executor.free(lane) })).filter((w) => w.limit > 0) : [];
    if (outcomes.length === 0 && wanted.length === 0) return;
    const { failures, claimed } = await this.store
      .write(() => {
        const now = Date.now();
        const failures = recordOutcomes(this.store, outcomes, now, this.options.backoffBaseMs ?? 1000);
        const done = new Set(outcomes.map(({ job }) => job.id));
        const claimed = wanted.map(({ lane, limit }) => {
          const jobs = claimJobs(this.store, this.claimable(lane, now, limit, done), now, process.pid);
          if (jobs.length === limit) this.again = true;
          return { lane, jobs };
        });
        return { failures, claimed };
      })
      .finally(() => {
        for (const { job } of outcomes) this.held.delete(job.id);
      });
    for (const { lane, jobs } of claimed) {
      if (jobs.length === 0) continue;
      for (const job of jobs) this.held.set(job.id, job);
      executor.run(lane, jobs);
    }
    reportFailures(failures, this.options.observer);
    if (this.state === "running") this.armDelayed();
  }

  /**
   * The due jobs of `lane` to claim: the oldest, or in a lane with a per-group limit a fair share (fair.ts),
   * counting the groups of the jobs still running (those whose outcomes this write records, `done`, are not).
   */
  private claimable(lane: Lane, now: number, limit: number, done: ReadonlySet<string>): JobRecord[] {
    const perGroup = LANE_POLICY[lane].perGroup;
    if (perGroup === undefined) return dueJobs(this.store, lane, now, limit);
    const running = new Map<string, number>();
    for (const job of this.held.values()) {
      if (job.lane === lane && job.group !== undefined && !done.has(job.id)) running.set(job.group, (running.get(job.group) ?? 0) + 1);
    }
    return this.fair.pick(dueJobs(this.store, lane, now, FAIR_SCAN), running, perGroup, limit);
  }

  /** Wakes the runner when the earliest job that is not due yet becomes due. */
  private armDelayed(): void {
    const now = Date.now();
    let at = Infinity;
    for (const lane of LANES) {
      const next = nextRunAt(this.store, lane);
      if (next !== null && next > now) at = Math.min(at, next);
    }
    if (at === Infinity || (this.delayed && this.delayed.at <= at)) return;
    if (this.delayed) clearTimeout(this.delayed.timer);
    // Timers take at most 2^31-1 ms (~24.8 days): a longer delay (a 30-day mute, a suspension's retention)
    // would fire at once, over and over. Waking early is harmless: the next pump schedules again.
    const timer = setTimeout(() => {
      this.delayed = null;
      this.wake();
    }, Math.min(at - now, MAX_TIMER_MS));
    this.delayed = { at, timer };
  }

  private async waitForRunning(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.held.size > 0 && Date.now() < deadline) await Bun.sleep(10);
    await this.pumping;
  }

  private anyDue(): boolean {
    const now = Date.now();
    return LANES.some((lane) => dueJobs(this.store, lane, now, 1).length > 0);
  }

  start(): Promise<void> {
    this.starting ??= (async () => {
      this.state = "running";
      const loaded = await loadRegistry(this.table, this.config.jobHandlerModules, this.options.defaultTimeoutMs);
      this.registry = loaded;
      await releaseOrphans(this.store);
      if (this.state !== "running") return;
      this.executor = this.newExecutor(loaded);
      this.poller = setInterval(this.wake, this.options.pollMs ?? 1000);
      this.wake();
    })();
    return this.starting;
  }

  private newExecutor(registry: Registry): Executor {
    const { store, config, jobs, hub } = this;
    if (config.jobWorkers > 0) return new WorkerPool(config.jobWorkers, this.table.spawnWorker, config, hub, registry.timeoutMs, this.report, this.wake);
    return inlineExecutor({ store, config, registry, jobs, emit: (event) => hub.emit(event) }, this.report);
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake();
  }

  async drain(): Promise<void> {
    await this.starting?.catch(() => {});
    for (;;) {
      const due = this.claiming() && this.anyDue();
      if (this.held.size === 0 && !this.pumping && !due) return;
      if (due) this.wake();
      await Bun.sleep(5);
    }
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.state === "new") {
        this.state = "stopped";
        return;
      }
      this.state = "stopping";
      if (this.poller) clearInterval(this.poller);
      if (this.delayed) clearTimeout(this.delayed.timer);
      await this.starting?.catch(() => {});
      await this.pumping;
      await this.waitForRunning(this.options.stopGraceMs ?? 10_000);
      // Their outcomes, if they still come, are no longer this runner's to record.
      const left = [...this.held.values()];
      this.held.clear();
      await releaseRunning(this.store, left);
      await this.executor?.close();
      await this.pumping;
      this.state = "stopped";
    })();
    return this.stopping;
  }
}
