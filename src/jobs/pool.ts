// A fixed number of Bun Worker threads, each running one job at a time with its own handle on the LMDB
// environment (worker.ts). A worker that crashes, exits or overruns a job's time limit is terminated and
// replaced; its job is reported as failed so the runner retries it.
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import type { ClaimedJob } from "../store/jobs.ts";
import type { EventHub } from "./events.ts";
import { timedOut, type Executor } from "./inline.ts";
import type { JobEvent } from "./queue.ts";
import type { Outcome } from "./registry.ts";

// A separate entry point: `bun build --compile` must list src/jobs/worker.ts as an extra entrypoint.
const WORKER_URL = new URL("./worker.ts", import.meta.url).href;
const RESPAWN_DELAY_MS = 1000;
const CLOSE_WAIT_MS = 2000;

export type ToWorker = { kind: "init"; config: Config } | { kind: "run"; job: ClaimedJob } | { kind: "close" };
export type FromWorker =
  | { kind: "ready" }
  | { kind: "init-failed"; error: string }
  | { kind: "event"; event: JobEvent }
  | { kind: "wake" }
  | { kind: "done"; jobId: string; outcome: Outcome }
  | { kind: "closed" };

interface Running {
  jobId: string;
  resolve(outcome: Outcome): void;
  timer: ReturnType<typeof setTimeout>;
}

interface Slot {
  worker: Worker;
  state: "starting" | "idle" | "busy" | "gone";
  current: Running | null;
  onClosed: (() => void) | null;
}

interface Waiting {
  job: ClaimedJob;
  timeoutMs: number;
  resolve(outcome: Outcome): void;
}

export class WorkerPool implements Executor {
  private slots = new Set<Slot>();
  private waiting: Waiting[] = [];
  private closing = false;

  /** `onChange` is called when a worker becomes free or asks the runner to look for new jobs. */
  constructor(
    size: number,
    private config: Config,
    private hub: EventHub,
    private onChange: () => void,
  ) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  free(): number {
    let idle = 0;
    for (const slot of this.slots) if (slot.state === "idle") idle++;
    return idle - this.waiting.length;
  }

  run(job: ClaimedJob, timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      this.waiting.push({ job, timeoutMs, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const { resolve } of this.waiting.splice(0)) resolve(stopped);
    await Promise.all([...this.slots].map((slot) => this.closeSlot(slot)));
  }

  private spawn(): void {
    const slot: Slot = { worker: new Worker(WORKER_URL), state: "starting", current: null, onClosed: null };
    this.slots.add(slot);
    slot.worker.addEventListener("message", (event) => this.receive(slot, (event as MessageEvent<FromWorker>).data));
    slot.worker.addEventListener("error", (event) => this.replace(slot, `worker crashed: ${(event as ErrorEvent).message}`));
    slot.worker.addEventListener("close", () => this.replace(slot, "worker exited"));
    this.send(slot, { kind: "init", config: this.config });
  }

  private receive(slot: Slot, message: FromWorker): void {
    switch (message.kind) {
      case "ready":
        slot.state = "idle";
        this.dispatch();
        return this.onChange();
      case "init-failed":
        log.error("job worker failed to start", { error: message.error });
        return this.replace(slot, message.error);
      case "event":
        return this.hub.emit(message.event);
      case "wake":
        return this.onChange();
      case "done":
        if (slot.current?.jobId !== message.jobId) return;
        this.finish(slot, message.outcome);
        if (slot.state !== "gone") slot.state = "idle";
        this.dispatch();
        return this.onChange();
      case "closed":
        return slot.onClosed?.();
    }
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (slot.state !== "idle") continue;
      const { job, timeoutMs, resolve } = this.waiting.shift()!;
      slot.state = "busy";
      const timer = setTimeout(() => this.replace(slot, timedOut(timeoutMs).error), timeoutMs);
      slot.current = { jobId: job.id, resolve, timer };
      this.send(slot, { kind: "run", job });
    }
  }

  private finish(slot: Slot, outcome: Outcome): void {
    const current = slot.current;
    if (!current) return;
    slot.current = null;
    clearTimeout(current.timer);
    current.resolve(outcome);
  }

  /** Ends a worker that can no longer be trusted; its job fails with `reason` and a new worker starts. */
  private replace(slot: Slot, reason: string): void {
    if (slot.state === "gone") return;
    const neverStarted = slot.state === "starting";
    slot.state = "gone";
    this.slots.delete(slot);
    this.finish(slot, { ok: false, error: reason, permanent: false });
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
    this.finish(slot, stopped);
    slot.worker.terminate();
  }

  private send(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}

const stopped: Outcome = { ok: false, error: "job queue stopped", permanent: false };
