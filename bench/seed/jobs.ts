// The seeder's job queue: the domain actions enqueue their events' subscriber jobs here instead of into the
// durable queue, and `runPending()` runs them with the same registry and handlers the server's workers use,
// in this process, many at once so their writes share commits. The seeded instance thus holds exactly what
// the actions and their subscribers (fan-out, notifications…) write, and no backlog of jobs: a benchmark
// server started on it measures its requests, not a queue catching up with the seeding.
import type { Config } from "../../src/config.ts";
import type { JobContext } from "../../src/jobs/registry.ts";
import type { EnqueueOptions, JobQueue } from "../../src/jobs/queue.ts";
import { loadRegistry, runHandler, type Registry } from "../../src/jobs/registry.ts";
import { jobTable } from "../../src/compose.ts";
import type { Store } from "../../src/store/db.ts";

interface PendingJob {
  id: string;
  type: string;
  payload: unknown;
}

/** Jobs run at once; their writes are batched by lmdb-js into few commits. A wave's jobs fit in one round:
 * at 256 the statuses phase spent a third of its time in extra commits and their syncs. */
const CONCURRENCY = 10_000;

export interface SeedJobQueue extends JobQueue {
  /** Runs every job enqueued so far, and those they enqueue, until none is left. Throws on a failed job. */
  runPending(): Promise<number>;
  /** Jobs run so far. */
  ran(): number;
}

export async function seedJobQueue(store: Store, config: Config): Promise<SeedJobQueue> {
  const registry: Registry = await loadRegistry(jobTable(), []);
  let pending: PendingJob[] = [];
  let counter = 0;
  let ran = 0;

  const queue: SeedJobQueue = {
    enqueue(type: string, payload: unknown, options: EnqueueOptions = {}) {
      // Nothing the seeder does is meant for later (idempotency keys, mute expiries): say so if that changes.
      if ((options.delayMs ?? 0) > 0) throw new Error(`the seeder cannot run delayed job ${type}`);
      const id = String(++counter);
      pending.push({ id, type, payload });
      return id;
    },
    async runPending() {
      const before = ran;
      while (pending.length) {
        const jobs = pending;
        pending = [];
        for (let from = 0; from < jobs.length; from += CONCURRENCY) {
          await Promise.all(jobs.slice(from, from + CONCURRENCY).map((job) => run(job)));
        }
      }
      return ran - before;
    },
    ran: () => ran,
    start: async () => {},
    pause: () => {},
    resume: () => {},
    drain: async () => {
      await queue.runPending();
    },
    stop: async () => {},
    onEvent: () => () => {},
    stats: () => ({ pending: pending.length, claimed: 0, dead: 0 }),
  };

  async function run(job: PendingJob): Promise<void> {
    const ctx: JobContext = { store, config, jobs: queue, emit: () => {}, job: { id: job.id, type: job.type, attempt: 1 } };
    const outcome = await runHandler(registry, ctx, job.payload);
    if (!outcome.ok) throw new Error(`seeding job ${job.type} failed: ${outcome.error}`);
    ran++;
  }

  return queue;
}
