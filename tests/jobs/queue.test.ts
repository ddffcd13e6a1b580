// The job queue with jobs run inline on the main thread (WARREN_JOB_WORKERS=0, as every HTTP test runs).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { threadId } from "node:worker_threads";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { backoffMs } from "../../src/jobs/outcomes.ts";
import { openJobQueue } from "../../src/compose.ts";
import { loadConfig } from "../../src/config.ts";
import { claimJobs, claimedJobs, deadJobs, dueJobs, pendingJobs } from "../../src/store/jobs.ts";
import { marked, openTestQueue, TEST_HANDLERS, type TestQueue } from "./fixtures/queue.ts";
import { eventually } from "../helpers/eventually.ts";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue(0);
});
afterAll(() => q.close());

const enqueue = (type: string, payload: unknown, options?: { delayMs?: number; maxAttempts?: number }) =>
  q.store.write(() => q.jobs.enqueue(type, payload, options));

test("backoff doubles from the base and is capped at an hour", () => {
  expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 8000]);
  expect(backoffMs(3, 50)).toBe(200);
  expect(backoffMs(30)).toBe(3_600_000);
});

test("a job enqueued in a write runs on the main thread and leaves no trace", async () => {
  const id = await enqueue("test.mark", { key: "inline" });
  expect(id).toMatch(/^\d{18}$/);
  await q.jobs.drain();
  expect(marked(q.store, "inline")).toEqual({ thread: threadId, attempt: 1 });
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
});

test("enqueue wakes the runner right after the commit, without waiting for a poll", async () => {
  const other = await openTestQueue(0, { pollMs: 60_000 });
  try {
    const started = Date.now();
    await other.store.write(() => other.jobs.enqueue("test.mark", { key: "woken" }));
    await eventually(() => marked(other.store, "woken"), { timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    await other.close();
  }
});

test("handler events reach onEvent listeners until they unsubscribe", async () => {
  const seen: unknown[] = [];
  const off = q.jobs.onEvent((event) => seen.push(event));
  await enqueue("test.emit", { value: "one" });
  await q.jobs.drain();
  off();
  await enqueue("test.emit", { value: "two" });
  await q.jobs.drain();
  expect(seen).toEqual([{ kind: "hello", value: "one", thread: threadId }]);
});

test("a failing job is retried with growing delays and then succeeds", async () => {
  const slow = await openTestQueue(0, { backoffBaseMs: 200 });
  try {
    const created = Date.now();
    await slow.store.write(() => slow.jobs.enqueue("test.flaky", { key: "flaky", failures: 2 }, { maxAttempts: 5 }));
    const first = await eventually(() => pendingJobs(slow.store).find((job) => job.attempts === 1));
    expect(first.lastError).toBe("failure 1");
    expect(first.runAt).toBeGreaterThanOrEqual(created + 200);
    const second = await eventually(() => pendingJobs(slow.store).find((job) => job.attempts === 2));
    expect(second.lastError).toBe("failure 2");
    expect(second.runAt - first.runAt).toBeGreaterThanOrEqual(400);
    await eventually(() => marked(slow.store, "flaky"));
    expect(marked(slow.store, "flaky")?.attempt).toBe(3);
    await slow.jobs.drain();
    expect(slow.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
  } finally {
    await slow.close();
  }
});

test("a job that keeps failing goes to the dead letters after maxAttempts", async () => {
  const id = await enqueue("test.flaky", { key: "doomed", failures: 99 }, { maxAttempts: 3 });
  await eventually(() => q.jobs.stats().dead === 1);
  const dead = deadJobs(q.store).find((job) => job.id === id)!;
  expect(dead).toMatchObject({ type: "test.flaky", attempts: 3, maxAttempts: 3, lastError: "failure 3" });
  expect(dead.diedAt).toBeGreaterThanOrEqual(dead.createdAt);
  expect(marked(q.store, "doomed")).toBeUndefined();
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 1 });
});

test("a job of an unknown type is buried at once: retrying cannot help", async () => {
  const id = await enqueue("no.such.type", {});
  await q.jobs.drain();
  const dead = deadJobs(q.store).find((job) => job.id === id)!;
  expect(dead).toMatchObject({ attempts: 1, lastError: "no handler for job type no.such.type" });
});

test("a job over its time limit counts as a failure and is retried", async () => {
  await enqueue("test.hang", { key: "hung" });
  await eventually(() => marked(q.store, "hung"));
  expect(marked(q.store, "hung")?.attempt).toBe(2);
});

test("pause holds jobs back, drain does not wait for them, resume runs them", async () => {
  q.jobs.pause();
  await enqueue("test.mark", { key: "held" });
  // The flush of the write wakes the runner, whose pump is under way a turn later; drain waits for that pump.
  await q.store.flushed();
  await new Promise((resolve) => setImmediate(resolve));
  await q.jobs.drain();
  expect(marked(q.store, "held")).toBeUndefined();
  expect(q.jobs.stats().pending).toBe(1);
  q.jobs.resume();
  await q.jobs.drain();
  expect(marked(q.store, "held")).toBeDefined();
});

test("a delayed job waits for its time; drain does not wait for it", async () => {
  const started = Date.now();
  await enqueue("test.mark", { key: "later" }, { delayMs: 400 });
  await q.jobs.drain();
  expect(marked(q.store, "later")).toBeUndefined();
  expect(q.jobs.stats().pending).toBe(1);
  await eventually(() => marked(q.store, "later"));
  expect(Date.now() - started).toBeGreaterThanOrEqual(400);
});

test("stop waits for running jobs for a grace period, then releases them to the queue", async () => {
  const other = await openTestQueue(0, { stopGraceMs: 100 });
  try {
    await other.store.write(() => other.jobs.enqueue("test.sleep", { key: "cut", ms: 800 }));
    await eventually(() => marked(other.store, "cut:started"));
    await other.jobs.stop();
    expect(claimedJobs(other.store)).toEqual([]);
    const [released] = pendingJobs(other.store);
    expect(released).toMatchObject({ type: "test.sleep", attempts: 0 });
    expect(released!.runAt).toBeLessThanOrEqual(Date.now());
    // A new runner on the same data runs it.
    const config = loadConfig({ WARREN_DATA_DIR: other.dir, WARREN_JOB_WORKERS: "0", WARREN_JOB_HANDLERS_EXTRA: TEST_HANDLERS });
    const next = openJobQueue(other.store, config);
    await next.start();
    await next.drain();
    await next.stop();
    expect(next.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
  } finally {
    await other.close();
  }
});

describe("start-up", () => {
  test("releases jobs claimed by a dead process, buries those out of attempts, keeps live owners' claims", async () => {
    const other = await openTestQueue(0);
    await other.jobs.stop();
    const store = other.store;
    const deadPid = 2 ** 22 + 17; // above Linux's pid_max: no such process
    await store.write(() => {
      enqueueJob(store, "test.mark", { key: "orphan" });
      enqueueJob(store, "test.mark", { key: "exhausted" }, { maxAttempts: 1 });
      enqueueJob(store, "test.mark", { key: "alive" });
    });
    const [orphan, exhausted, alive] = dueJobs(store, "default", Date.now(), 3);
    await store.write(() => {
      claimJobs(store, [orphan!, exhausted!], Date.now(), deadPid);
      claimJobs(store, [alive!], Date.now(), process.ppid);
    });
    const config = loadConfig({ WARREN_DATA_DIR: other.dir, WARREN_JOB_WORKERS: "0", WARREN_JOB_HANDLERS_EXTRA: TEST_HANDLERS });
    const next = openJobQueue(store, config);
    try {
      await next.start();
      await next.drain();
      expect(marked(store, "orphan")?.attempt).toBe(2);
      expect(marked(store, "exhausted")).toBeUndefined();
      expect(deadJobs(store).map((job) => job.lastError)).toEqual(["interrupted: its process stopped"]);
      expect(claimedJobs(store).map((job) => job.id)).toEqual([alive!.id]);
    } finally {
      await next.stop();
      await other.close();
    }
  });

  test("rejects when an extra handler module cannot be loaded", async () => {
    const config = loadConfig({ WARREN_DATA_DIR: q.dir, WARREN_JOB_HANDLERS_EXTRA: "/nonexistent/handlers.ts" });
    const broken = openJobQueue(q.store, config);
    await expect(broken.start()).rejects.toThrow();
    await broken.stop();
  });
});

test("a delayed job wakes the runner when it is due, with no polling", async () => {
  const other = await openTestQueue(0);
  try {
    const started = Date.now();
    await other.store.write(() => other.jobs.enqueue("test.mark", { key: "timer" }, { delayMs: 300 }));
    await eventually(() => marked(other.store, "timer"), { timeoutMs: 2000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  } finally {
    await other.close();
  }
});

test("each job type runs in the lane its handler module declares unless the enqueue names one", async () => {
  q.jobs.pause();
  try {
    await q.store.write(() => {
      q.jobs.enqueue("test.emit", { value: "declared" });
      q.jobs.enqueue("test.mark", { key: "undeclared" });
      q.jobs.enqueue("test.mark", { key: "named" }, { lane: "backfill" });
    });
    const lanes = pendingJobs(q.store).map((job) => `${job.type} ${job.lane}`);
    expect(lanes.sort()).toEqual(["test.emit realtime", "test.mark backfill", "test.mark default"]);
  } finally {
    q.jobs.resume();
    await q.jobs.drain();
  }
});
