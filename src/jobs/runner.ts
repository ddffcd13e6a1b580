// Claims due jobs and runs them. (Inline version; the Worker pool is added in pool.ts.)
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { log } from "../lib/log.ts";
import { buryJob, claimJob, claimedJobs, completeJob, dueJobs, requeueJob, type JobRecord } from "../store/jobs.ts";
import { HANDLERS } from "./handlers/index.ts";
import { enqueueJob, type JobQueue } from "./queue.ts";

const POLL_MS = 100;

export function backoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** (attempts - 1), 3_600_000);
}

export function createJobQueue(store: Store, config: Config): JobQueue {
  let running = false;
  let paused = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = 0;

  async function runOne(job: JobRecord) {
    const handler = HANDLERS[job.type];
    try {
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      await handler({ store, config }, job.payload);
      await store.write(() => completeJob(store, job.id));
    } catch (error) {
      const attempts = job.attempts + 1;
      const lastError = String((error as Error)?.message ?? error);
      const now = Date.now();
      await store.write(() => {
        if (attempts >= job.maxAttempts) buryJob(store, { ...job, attempts, lastError }, now);
        else requeueJob(store, { ...job, attempts, lastError, runAt: now + backoffMs(attempts) });
      });
      log.warn("job failed", { type: job.type, id: job.id, attempts, error: lastError });
    }
  }

  async function tick() {
    timer = null;
    if (!running || paused) return;
    const due = dueJobs(store, Date.now(), 50);
    for (const job of due) {
      if (!running || paused) break;
      const claimed = await store.write(() => claimJob(store, job, Date.now()));
      if (!claimed) continue;
      inFlight++;
      try {
        await runOne(job);
      } finally {
        inFlight--;
      }
    }
    schedule(due.length > 0 ? 0 : POLL_MS);
  }

  function schedule(ms: number) {
    if (running && !paused && !timer) timer = setTimeout(tick, ms);
  }

  return {
    enqueue: (type, payload, options) => {
      const id = enqueueJob(store, type, payload, options);
      return id;
    },
    start() {
      if (running) return;
      running = true;
      // Jobs claimed by a previous process that died are released back to the queue.
      const orphans = claimedJobs(store);
      if (orphans.length) void store.write(() => orphans.forEach((job) => requeueJob(store, job)));
      schedule(0);
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      schedule(0);
    },
    async drain() {
      while (inFlight > 0 || dueJobs(store, Date.now(), 1).length > 0) await Bun.sleep(10);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      while (inFlight > 0) await Bun.sleep(10);
    },
  };
}
