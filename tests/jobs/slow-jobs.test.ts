// A lane's limit counts jobs in flight, not batches: a slow job (a remote server that takes its time) holds
// only its own place, and the jobs claimed with it or after it go on around it; a batch handler still gets
// its jobs merged. With worker threads on (as users run it) and inline (WARREN_JOB_WORKERS=0, as the HTTP
// tests run).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LANE_POLICY } from "../../src/jobs/lanes.ts";
import { marked, openTestQueue, type TestQueue } from "./fixtures/queue.ts";
import { eventually } from "../helpers/eventually.ts";

const keys = (prefix: string, n: number) => [...Array(n).keys()].map((i) => `${prefix}-${i}`);
const release = (q: TestQueue, name: string) => q.store.write(() => q.store.db.meta.put(`test:${name}`, true));
const started = (q: TestQueue, all: string[]) => all.filter((key) => marked(q.store, `${key}:started`));

/**
 * Runs a quick job in another lane and waits for it: the runner's pump that claimed it also claimed every
 * network job the executor had room for, so what is claimed afterwards is all it will take.
 */
async function afterOnePump(q: TestQueue, key: string) {
  await q.store.write(() => q.jobs.enqueue("test.mark", { key }, { lane: "default" }));
  await eventually(() => marked(q.store, key));
}

async function enqueueSlow(q: TestQueue, all: string[], releasedBy: string) {
  await q.store.write(() => {
    for (const key of all) q.jobs.enqueue("test.wait", { key, release: releasedBy, ms: 30_000 }, { lane: "network" });
  });
}

/** Quick network jobs enqueued while `slow` jobs run all finish before them. */
async function quickPassSlow(q: TestQueue, slow: string[], releasedBy: string) {
  const quick = keys(`${releasedBy}-quick`, 40);
  await q.store.write(() => {
    for (const key of quick) q.jobs.enqueue("test.mark", { key }, { lane: "network" });
  });
  try {
    // Done and recorded: only the slow ones are still claimed.
    await eventually(() => quick.every((key) => marked(q.store, key)) && q.jobs.stats().claimed === slow.length, { timeoutMs: 10_000 });
    expect(slow.filter((key) => marked(q.store, key))).toEqual([]);
    expect(q.jobs.stats()).toEqual({ pending: 0, claimed: slow.length, dead: 0 });
  } finally {
    await release(q, releasedBy);
    await q.jobs.drain();
  }
  expect(slow.every((key) => marked(q.store, key)?.attempt === 1)).toBe(true);
}

/** `count` jobs of the realtime batch handler, due together: how many each call got. */
async function gathered(q: TestQueue, prefix: string, count: number): Promise<number[]> {
  q.jobs.pause();
  await q.store.write(() => {
    for (const key of keys(prefix, count)) q.jobs.enqueue("test.gather", { key });
  });
  q.jobs.resume();
  await q.jobs.drain();
  return keys(prefix, count).map((key) => marked(q.store, key)!.together!);
}

describe("with two worker threads", () => {
  let q: TestQueue;
  beforeAll(async () => {
    q = await openTestQueue(2);
  });
  afterAll(() => q.close());

  test("a slow network job on each worker does not hold back the quick ones enqueued after it", async () => {
    const slow = keys("slow", 2);
    await enqueueSlow(q, slow, "slow-release");
    await eventually(() => started(q, slow).length === 2);
    // One on each worker: under a batch-at-a-time pool, both workers' network lanes would be blocked.
    expect(marked(q.store, "slow-0:started")!.thread).not.toBe(marked(q.store, "slow-1:started")!.thread);
    await quickPassSlow(q, slow, "slow-release");
  });

  test("the network lane holds its limit of jobs in flight on each worker, no more", async () => {
    const limit = LANE_POLICY.network.batch;
    const all = keys("held", 2 * limit + 8);
    await enqueueSlow(q, all, "held-release");
    try {
      await eventually(() => started(q, all).length === 2 * limit);
      await afterOnePump(q, "held-probe");
      expect(q.jobs.stats().claimed).toBe(2 * limit);
      const running = started(q, all);
      expect(running.length).toBe(2 * limit);
      const perThread = new Map<number, number>();
      for (const key of running) {
        const thread = marked(q.store, `${key}:started`)!.thread;
        perThread.set(thread, (perThread.get(thread) ?? 0) + 1);
      }
      expect([...perThread.values()]).toEqual([limit, limit]);
    } finally {
      await release(q, "held-release");
      await q.jobs.drain();
    }
    expect(all.every((key) => marked(q.store, key))).toBe(true);
  });

  test("the realtime lane's batch handler still gets merged batches when many jobs are due together", async () => {
    const together = await gathered(q, "merged", 150);
    expect(together.every((n) => n > 1)).toBe(true);
    expect(Math.max(...together)).toBe(LANE_POLICY.realtime.batch);
    expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
  });
});

describe("inline", () => {
  let q: TestQueue;
  beforeAll(async () => {
    q = await openTestQueue(0);
  });
  afterAll(() => q.close());

  test("a slow network job does not hold back the quick ones enqueued after it", async () => {
    const slow = ["inline-slow"];
    await enqueueSlow(q, slow, "inline-release");
    await eventually(() => started(q, slow).length === 1);
    await quickPassSlow(q, slow, "inline-release");
  });

  test("the network lane holds its limit of jobs in flight, no more", async () => {
    const all = keys("inline-held", LANE_POLICY.network.batch + 4);
    await enqueueSlow(q, all, "inline-held-release");
    try {
      await eventually(() => started(q, all).length === LANE_POLICY.network.batch);
      await afterOnePump(q, "inline-held-probe");
      expect(q.jobs.stats().claimed).toBe(LANE_POLICY.network.batch);
      expect(started(q, all).length).toBe(LANE_POLICY.network.batch);
    } finally {
      await release(q, "inline-held-release");
      await q.jobs.drain();
    }
    expect(all.every((key) => marked(q.store, key))).toBe(true);
  });

  test("the realtime lane's batch handler still gets merged batches when many jobs are due together", async () => {
    const together = await gathered(q, "inline-merged", 100);
    expect(together.toSorted((a, b) => a - b)).toEqual([...Array(36).fill(36), ...Array(64).fill(64)]);
  });

  test("jobs of a batch handler enqueued one by one while its call runs go into its next call together", async () => {
    await q.store.write(() => q.jobs.enqueue("test.gather", { key: "gather-first", ms: 1500 }));
    await eventually(() => marked(q.store, "gather-first:started"));
    const later = keys("gather-later", 20);
    for (const key of later) await q.store.write(() => q.jobs.enqueue("test.gather", { key }));
    await q.jobs.drain();
    expect(marked(q.store, "gather-first")!.together).toBe(1);
    expect(later.map((key) => marked(q.store, key)!.together)).toEqual(later.map(() => 20));
  });
});
