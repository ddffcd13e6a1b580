// A fixed number of Bun Worker threads, each with its own handle on the LMDB environment (worker.ts). A worker
// runs at most one batch per lane at a time (lanes.ts), the jobs of a batch concurrently, and reports each
// job's outcome as it finishes. A worker that crashes, exits or lets a job overrun its time limit is
// terminated and replaced; what it was running is reported back so the runner can retry it.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { ClaimedJob } from "../store/jobs.ts";
import type { EventHub } from "./events.ts";
import { timedOut, type Executor } from "./inline.ts";
import { LANE_POLICY, type Lane } from "./lanes.ts";
import type { JobEvent } from "./queue.ts";
import type { Outcome } from "./registry.ts";

// A separate entry point: `bun build --compile` must list src/jobs/worker.ts as an extra entrypoint.
const WORKER_URL = new URL("./worker.ts", import.meta.url).href;
const RESPAWN_DELAY_MS = 1000;
const CLOSE_WAIT_MS = 2000;

export type ToWorker = { kind: "init"; config: Config } | { kind: "run"; batchId: number; jobs: ClaimedJob[] } | { kind: "close" };
export type FromWorker =
  | { kind: "ready" }
  | { kind: "init-failed"; error: string }
  | { kind: "event"; event: JobEvent }
  | { kind: "wake" }
  | { kind: "done"; batchId: number; jobId: string; outcome: Outcome }
  | { kind: "closed" };

interface Batch {
  id: number;
  lane: Lane;
  jobs: ClaimedJob[];
  outcomes: Map<string, Outcome>;
  resolve(outcomes: Outcome[]): void;
  /** When each job overruns its time limit (ms since the epoch); set when the batch is sent. */
  deadlines: Map<string, number>;
  timer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  state: "starting" | "ready" | "gone";
  running: Map<Lane, Batch>;
  onClosed: (() => void) | null;
}

export class WorkerPool implements Executor {
  private slots = new Set<Slot>();
  private waiting: Batch[] = [];
  private closing = false;
  private nextBatchId = 1;

  /** `onChange` is called when a worker frees a lane slot or asks the runner to look for new jobs. */
  constructor(
    private size: number,
    private config: Config,
    private hub: EventHub,
    private timeoutMs: (type: string) => number,
    private onChange: () => void,
  ) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  /** Workers still starting count as free: their batch waits for them unless another worker frees up first. */
  free(lane: Lane): number {
    let running = 0;
    let open = 0;
    for (const slot of this.slots) {
      if (slot.running.has(lane)) running++;
      else open++;
    }
    const queued = this.waiting.filter((batch) => batch.lane === lane).length;
    return Math.min(LANE_POLICY[lane].slots(this.size) - running, open) - queued;
  }

  run(lane: Lane, jobs: ClaimedJob[]): Promise<Outcome[]> {
    return new Promise((resolve) => {
      this.waiting.push({ id: this.nextBatchId++, lane, jobs, outcomes: new Map(), resolve, deadlines: new Map() });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const batch of this.waiting.splice(0)) batch.resolve(batch.jobs.map(() => stopped));
    await Promise.all([...this.slots].map((slot) => this.closeSlot(slot)));
  }

  private spawn(): void {
    const slot: Slot = { worker: new Worker(WORKER_URL), state: "starting", running: new Map(), onClosed: null };
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
        this.dispatch();
        return this.onChange();
      case "init-failed":
        log.error("job worker failed to start", { error: message.error });
        return this.replace(slot, message.error);
      case "event":
        return this.hub.emit(message.event);
      case "wake":
        return this.onChange();
      case "done": {
        const batch = [...slot.running.values()].find((b) => b.id === message.batchId);
        if (!batch) return;
        batch.outcomes.set(message.jobId, message.outcome);
        if (batch.outcomes.size < batch.jobs.length) return;
        this.finish(slot, batch);
        this.dispatch();
        return this.onChange();
      }
      case "closed":
        return slot.onClosed?.();
    }
  }

  /** Sends waiting batches to ready workers that are not running a batch of the same lane. */
  private dispatch(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const batch = this.waiting[i]!;
      const slot = this.pick(batch.lane);
      if (!slot) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      slot.running.set(batch.lane, batch);
      const now = Date.now();
      for (const job of batch.jobs) batch.deadlines.set(job.id, now + this.timeoutMs(job.type));
      this.watch(slot, batch);
      this.send(slot, { kind: "run", batchId: batch.id, jobs: batch.jobs });
    }
  }

  /** The ready worker free for `lane` with the fewest batches running. */
  private pick(lane: Lane): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.state !== "ready" || slot.running.has(lane)) continue;
      if (!best || slot.running.size < best.running.size) best = slot;
    }
    return best;
  }

  /** Arms the batch's timer for its earliest unfinished deadline; past it, the worker is replaced. */
  private watch(slot: Slot, batch: Batch): void {
    let earliest = Infinity;
    for (const [jobId, deadline] of batch.deadlines) if (!batch.outcomes.has(jobId)) earliest = Math.min(earliest, deadline);
    batch.timer = setTimeout(() => {
      const now = Date.now();
      const overdue = batch.jobs.some((job) => !batch.outcomes.has(job.id) && batch.deadlines.get(job.id)! <= now);
      if (overdue) this.replace(slot, "timeout");
      else this.watch(slot, batch);
    }, Math.max(0, earliest - Date.now()));
  }

  private finish(slot: Slot, batch: Batch): void {
    clearTimeout(batch.timer);
    slot.running.delete(batch.lane);
    batch.resolve(batch.jobs.map((job) => batch.outcomes.get(job.id)!));
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
    for (const batch of [...slot.running.values()]) {
      for (const job of batch.jobs) {
        if (batch.outcomes.has(job.id)) continue;
        const overdue = batch.deadlines.get(job.id)! <= now;
        const outcome: Outcome =
          reason !== "timeout" ? { ok: false, error: reason, permanent: false }
          : overdue ? timedOut(this.timeoutMs(job.type))
          : { ok: false, error: "interrupted: a job on the same worker overran its time limit", permanent: false, uncounted: true };
        batch.outcomes.set(job.id, outcome);
      }
      this.finish(slot, batch);
    }
    slot.worker.terminate();
    if (this.closing) return;
    log.warn("replacing job worker", { reason });
    // A worker that cannot even start would fail again at once: do not spin.
    if (neverStarted) setTimeout(() => this.closing || this.spawn(), RESPAWN_DELAY_MS);
    else this.spawn();
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
    for (const batch of [...slot.running.values()]) {
      for (const job of batch.jobs) if (!batch.outcomes.has(job.id)) batch.outcomes.set(job.id, stopped);
      this.finish(slot, batch);
    }
    slot.worker.terminate();
  }

  private send(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}

const stopped: Outcome = { ok: false, error: "job queue stopped", permanent: false, uncounted: true };
