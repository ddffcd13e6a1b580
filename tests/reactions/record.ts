// Recording events against the real reactions tables (src/reactions) and a real store on a temporary
// directory, without an app or a running queue: what each event enqueues (subscriber, lane, delay, group) is
// read back from the store's job records.
import { recordEvent, type EventPayloads, type EventType, type Origin } from "../../src/domain/events.ts";
import { enqueueJob, type EnqueueOptions } from "../../src/jobs/queue.ts";
import { REACTIONS, subscriberJobs } from "../../src/reactions/index.ts";
import { claimJobs, completeJob, pendingJobs } from "../../src/store/jobs.ts";
import { tempStore } from "../helpers/temp-store.ts";

export interface Enqueued {
  name: string;
  lane: string;
  /** ms after the event */
  delayMs: number;
  group?: string;
}

subscriberJobs(REACTIONS);

/**
 * A store on a temporary directory for one test file (closed after it), and `record`: records one event (at
 * `at`) and returns the jobs it enqueued, by subscriber name, leaving the store empty again.
 */
export function eventRecorder() {
  const store = tempStore("reactions");
  const jobs = { enqueue: (name: string, job: unknown, options?: EnqueueOptions) => enqueueJob(store, name, job, options) };

  async function record<T extends EventType>(type: T, payload: EventPayloads[T], origin: Origin = "local", at = Date.now()): Promise<Enqueued[]> {
    const given = await store.write(() => recordEvent({ jobs }, type, payload, origin, at));
    const pending = pendingJobs(store, 1000);
    await store.write(() => {
      for (const job of claimJobs(store, pending, Date.now(), process.pid)) completeJob(store, job.id);
    });
    if (pending.map((job) => job.type).sort().join() !== [...given].sort().join()) throw new Error("recordEvent's answer and the store disagree");
    return pending
      .map((job) => ({ name: job.type, lane: job.lane, delayMs: job.runAt - job.createdAt, ...(job.group !== undefined && { group: job.group }) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The names of the subscribers an event reaches, sorted. */
  const reached = async <T extends EventType>(type: T, payload: EventPayloads[T], origin: Origin = "local") =>
    (await record(type, payload, origin)).map((job) => job.name);

  return { store, record, reached };
}
