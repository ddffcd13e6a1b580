// A fixed number of Bun Worker threads, each with its own handle on the LMDB environment (worker.ts). A worker
// holds at most LANE_POLICY[lane].batch jobs of a lane in flight, in as many batches as it was sent, and
// reports outcomes as jobs finish: the place of a finished job is free again at once, whatever its batch-mates
// are doing. A worker that crashes, exits or lets a job overrun its time limit is terminated and replaced;
// what it was running is reported back so the runner can retry it.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { EventHub } from "./events.ts";
import { timedOut, type Executor, type Finished, type Report } from "./inline.ts";
import { intoBatches, LANE_POLICY, LANES, type Lane } from "./lanes.ts";
import type { JobEvent } from "./queue.ts";
import type { Outcome } from "./registry.ts";
import type { ClaimedJob } from "../model/jobs.ts";
import { freeIdTag, MAX_JOB_WORKERS } from "../lib/ids.ts";

const RESPAWN_DELAY_MS = 1000;
const CLOSE_WAIT_MS = 2000;

export type ToWorker = { kind: "init"; config: Config } | { kind: "run"; jobs: ClaimedJob[] } | { kind: "close" };
export type FromWorker =
  | { kind: "ready" }
  | { kind: "init-failed"; error: string }
  | { kind: "event"; event: JobEvent }
  | { kind: "wake" }
  /** The jobs that finished in one turn of the worker. */
  | { kind: "done"; finished: Array<{ jobId: string; outcome: Outcome }> }
  | { kind: "closed" };

interface Running {
  job: ClaimedJob;
  /** When it overruns its time limit (ms since the epoch), counted from when its batch was sent. */
  deadline: number;
}

interface Slot {
  worker: Worker;
  /** The worker's id thread tag (lib/ids.ts), 1–15, no two live workers alike, a replacement's included. */
  idTag: number;
  state: "starting" | "ready" | "gone";
  running: Map<string, Running>;
  /** Set for the earliest deadline of `running`; past it, the worker is replaced. */
  timer?: ReturnType<typeof setTimeout>;
  onClosed: (() => void) | null;
}

export class WorkerPool implements Executor {
  private slots = new Set<Slot>();
  /** Jobs handed over but not yet sent: no ready worker had room for them. */
  private waiting = new Map<Lane, ClaimedJob[]>(LANES.map((lane) => [lane, []]));
  private closing = false;

  /**
   * `spawnWorker` starts a worker thread (the composition root's entry, which serves jobs through worker.ts); `report`
   * receives outcomes as jobs finish; `wake` is called when a worker asks the runner to look for jobs.
   */
  constructor(
    private size: number,
    private spawnWorker: (idTag: number) => Worker,
    private config: Config,
    private hub: EventHub,
    private timeoutMs: (type: string) => number,
    private report: Report,
    private wake: () => void,
  ) {
    // One worker at a time: each loads the whole job graph (~150 ms of CPU) and opens the store, and two at
    // once beside a starting server took both cores from its first answers (docs/benchmarks.md, start-up).
    // The next starts when one is ready (receive); replacements keep the count.
    if (size > 0) this.spawn();
  }

  /** Workers still starting count: jobs wait for them unless a ready worker has room first. */
  free(lane: Lane): number {
    const room = this.room(lane, this.live()).reduce((a, b) => a + b, 0);
    return Math.max(0, room - this.waiting.get(lane)!.length);
  }

  run(lane: Lane, jobs: ClaimedJob[]): void {
    this.waiting.get(lane)!.push(...jobs);
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closing = true;
    const left = [...this.waiting.values()].flatMap((jobs) => jobs.splice(0));
    if (left.length) this.report(left.map((job) => ({ job, outcome: stopped })));
    await Promise.all([...this.slots].map((slot) => this.closeSlot(slot)));
  }

  private spawn(): void {
    const idTag = freeIdTag([...this.slots].map((slot) => slot.idTag), MAX_JOB_WORKERS, "job workers");
    const slot: Slot = { worker: this.spawnWorker(idTag), idTag, state: "starting", running: new Map(), onClosed: null };
    this.slots.add(slot);
    slot.worker.addEventListener("message", (event) => this.receive(slot, (event as MessageEvent<FromWorker>).data));
    slot.worker.addEventListener("error", (event) => this.replace(slot, `worker crashed: ${(event as ErrorEvent).message}`));
    slot.worker.addEventListener("close", () => this.replace(slot, "worker exited"));
    this.send(slot, { kind: "init", config: this.config });
  }

  private receive(slot: Slot, message: FromWorker): void {
    switch (message.kind) {
      case "ready":
        slot.state = "ready";
        if (!this.closing && this.slots.size < this.size) this.spawn();
        this.dispatch();
        return this.wake();
      case "init-failed":
        log.error("job worker failed to start", { error: message.error });
        return this.replace(slot, message.error);
      case "event":
        return this.hub.emit(message.event);
      case "wake":
        return this.wake();
      case "done": {
        if (slot.state === "gone") return;
        const finished: Finished[] = [];
        for (const { jobId, outcome } of message.finished) {
          const running = slot.running.get(jobId);
          if (!running) continue;
          slot.running.delete(jobId);
          finished.push({ job: running.job, outcome });
        }
        if (slot.running.size === 0) clearTimeout(slot.timer);
        this.dispatch();
        return this.report(finished);
      }
      case "closed":
        return slot.onClosed?.();
    }
  }

  /** Live workers, ready ones first, the least busy first: the order in which they get room for a lane. */
  private live(): Slot[] {
    return [...this.slots].sort((a, b) => Number(b.state === "ready") - Number(a.state === "ready") || a.running.size - b.running.size);
  }

  /** How many more jobs of `lane` each of `slots` may take: its share, on at most `slots(size)` workers at once. */
  private room(lane: Lane, slots: Slot[]): number[] {
    const { batch, slots: share } = LANE_POLICY[lane];
    const held = slots.map((slot) => {
      let n = 0;
      for (const { job } of slot.running.values()) if (job.lane === lane) n++;
      return n;
    });
    let newcomers = share(this.size) - held.filter((n) => n > 0).length;
    return held.map((n) => (n > 0 ? Math.max(0, batch - n) : newcomers-- > 0 ? batch : 0));
  }

  /**
   * Sends waiting jobs to ready workers with room, spread evenly, one batch per worker and lane. A starting
   * worker's share waits for it, unless a ready worker has room for it at a later dispatch.
   */
  private dispatch(): void {
    for (const [lane, jobs] of this.waiting) {
      if (jobs.length === 0) continue;
      const slots = this.live();
      const sent = new Set<ClaimedJob>();
      for (const batch of intoBatches(jobs, this.room(lane, slots))) {
        const slot = slots[batch.at]!;
        if (slot.state !== "ready") continue;
        this.start(slot, batch.jobs);
        for (const job of batch.jobs) sent.add(job);
      }
      if (sent.size) this.waiting.set(lane, jobs.filter((job) => !sent.has(job)));
    }
  }

  private start(slot: Slot, jobs: ClaimedJob[]): void {
    const now = Date.now();
    for (const job of jobs) slot.running.set(job.id, { job, deadline: now + this.timeoutMs(job.type) });
    this.watch(slot);
    this.send(slot, { kind: "run", jobs });
  }

  /** Arms the worker's timer for its earliest unfinished deadline; past it, the worker is replaced. */
  private watch(slot: Slot): void {
    clearTimeout(slot.timer);
    let earliest = Infinity;
    for (const { deadline } of slot.running.values()) earliest = Math.min(earliest, deadline);
    if (earliest === Infinity) return;
    slot.timer = setTimeout(() => {
      const now = Date.now();
      if ([...slot.running.values()].some((r) => r.deadline <= now)) this.replace(slot, "timeout");
      else this.watch(slot);
    }, Math.max(0, earliest - Date.now()));
  }

  /** Takes a gone worker's unfinished jobs off it, with the outcome each gets. */
  private takeRunning(slot: Slot, outcome: (running: Running) => Outcome): Finished[] {
    clearTimeout(slot.timer);
    const finished = [...slot.running.values()].map((running) => ({ job: running.job, outcome: outcome(running) }));
    slot.running.clear();
    return finished;
  }

  /**
   * Ends a worker that can no longer be trusted and starts a new one. After a crash or exit every unfinished
   * job it held fails (there is no telling which one did it; each is retried alone). After a time-out only
   * the jobs past their limit fail; the others it held go back uncounted.
   */
  private replace(slot: Slot, reason: "timeout" | string): void {
    if (slot.state === "gone") return;
    const neverStarted = slot.state === "starting";
    slot.state = "gone";
    this.slots.delete(slot);
    const now = Date.now();
    const finished = this.takeRunning(slot, ({ job, deadline }) =>
      reason !== "timeout" ? { ok: false, error: reason, permanent: false }
      : deadline <= now ? timedOut(this.timeoutMs(job.type))
      : { ok: false, error: "interrupted: a job on the same worker overran its time limit", permanent: false, uncounted: true });
    slot.worker.terminate();
    if (!this.closing) {
      log.warn("replacing job worker", { reason });
      // A worker that cannot even start would fail again at once: do not spin.
      if (neverStarted) setTimeout(() => this.closing || this.spawn(), RESPAWN_DELAY_MS);
      else this.spawn();
    }
    if (finished.length) this.report(finished);
  }

  private async closeSlot(slot: Slot): Promise<void> {
    if (slot.state === "gone") return;
    if (slot.state !== "starting") {
      // Let the worker close its store handle; a worker stuck in a handler is terminated regardless.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        slot.onClosed = resolve;
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
        this.send(slot, { kind: "close" });
      });
      clearTimeout(timer);
    }
    slot.state = "gone";
    this.slots.delete(slot);
    const finished = this.takeRunning(slot, () => stopped);
    slot.worker.terminate();
    if (finished.length) this.report(finished);
  }

  private send(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}

const stopped: Outcome = { ok: false, error: "job queue stopped", permanent: false, uncounted: true };
