// Fedify's MessageQueue on our durable job queue (docs/jobs.md): a message Fedify enqueues (an activity to
// deliver to one inbox, an incoming activity to process, a fan-out to many inboxes) becomes a job of type
// `federation.message` on the `network` lane, committed to LMDB before `enqueue` resolves. So it survives a
// restart and runs on a worker thread like every other job: the job's handler (src/federation/jobs.ts) builds
// that thread's federation, which listens on this queue, and hands it the message.
//
// Retries are Fedify's own (nativeRetrial is false): a failed delivery is enqueued again with its backoff
// delay, as a new delayed job. Ordering keys are accepted but not honoured: jobs run in no particular order.
// Every message passes a gate first (delivery.ts: where deliveries may go, blocked domains, failing hosts).
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import type { Store } from "../store/db.ts";
import type { JobEnqueuer } from "../jobs/queue.ts";
import type { MessageGate } from "./delivery.ts";
import { FEDERATION_MESSAGE_JOB } from "../domain/job-names.ts";

/** The job's payload: the message as JSON text (arbitrary shapes stay out of msgpack's shared structures). */
export interface FederationMessageJob {
  message: string;
}

type Listener = (message: any) => Promise<void> | void;

function delayMs(options: MessageQueueEnqueueOptions | undefined): number {
  if (!options?.delay) return 0;
  return Math.max(0, Math.round(options.delay.total({ unit: "milliseconds" })));
}

export class JobMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  #listener: Listener | null = null;

  constructor(
    private readonly store: Store,
    private readonly jobs: JobEnqueuer,
    private readonly gate: MessageGate = (message, handle) => handle(message),
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.enqueueMany([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const delay = delayMs(options);
    await this.store.write(() => {
      for (const message of messages) {
        const payload: FederationMessageJob = { message: JSON.stringify(message) };
        this.jobs.enqueue(FEDERATION_MESSAGE_JOB, payload, { delayMs: delay, lane: "network" });
      }
    });
  }

  /**
   * Registers this thread's handler. Jobs are claimed by the runner, not polled here: the promise only
   * resolves when `signal` aborts (or never, without one), as the interface asks.
   */
  listen(handler: Listener, options: MessageQueueListenOptions = {}): Promise<void> {
    this.#listener = handler;
    return new Promise((resolve) => {
      const stop = () => {
        if (this.#listener === handler) this.#listener = null;
        resolve();
      };
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener("abort", stop, { once: true });
    });
  }

  get listening(): boolean {
    return this.#listener !== null;
  }

  /** Runs one job's message through the listening handler; throws (so the job is retried) when none listens. */
  async deliver(job: FederationMessageJob): Promise<void> {
    const listener = this.#listener;
    if (!listener) throw new Error("no federation listener on this thread");
    await this.gate(JSON.parse(job.message), async (message) => {
      await listener(message);
    });
  }
}
