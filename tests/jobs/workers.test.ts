// The job queue with jobs run on Bun Worker threads, each with its own handle on the same LMDB environment.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { threadId } from "node:worker_threads";
import { claimedJobs, deadJobs, pendingJobs } from "../../src/store/jobs.ts";
import { marked, openTestQueue, type TestQueue } from "./fixtures/queue.ts";
import { eventually } from "../helpers/eventually.ts";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue(2);
});
afterAll(() => q.close());

const enqueue = (type: string, payload: unknown, options?: { maxAttempts?: number }) =>
  q.store.write(() => q.jobs.enqueue(type, payload, options));

test("a worker sees what the main thread committed, and the main thread sees what the worker wrote", async () => {
  await q.store.write(() => {
    q.store.db.meta.put("test:from-main", "hello from main");
    q.jobs.enqueue("test.mark", { key: "worker", copyFrom: "test:from-main" });
  });
  const mark = await eventually(() => marked(q.store, "worker"));
  expect(mark.thread).not.toBe(threadId);
  expect(mark.copied).toBe("hello from main");
  await q.jobs.drain();
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
});

test("jobs run in parallel on every worker", async () => {
  await q.store.write(() => {
    for (let i = 0; i < 6; i++) q.jobs.enqueue("test.sleep", { key: `parallel-${i}`, ms: 150 });
  });
  const marks = await eventually(() => {
    const all = [0, 1, 2, 3, 4, 5].map((i) => marked(q.store, `parallel-${i}`));
    return all.every(Boolean) && all;
  });
  expect(new Set(marks.map((mark) => mark!.thread)).size).toBe(2);
});

test("events raised in a worker reach main-thread listeners", async () => {
  const seen: Array<Record<string, unknown>> = [];
  const off = q.jobs.onEvent((event) => seen.push(event));
  await enqueue("test.emit", { value: "from a worker" });
  await eventually(() => seen.length > 0);
  off();
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ kind: "hello", value: "from a worker" });
  expect(seen[0]!.thread).not.toBe(threadId);
});

test("a job enqueued by a handler in a worker is picked up", async () => {
  await enqueue("test.spawn", { key: "spawned" });
  await eventually(() => marked(q.store, "spawned"));
});

test("failures in a worker are retried with backoff, then dead-lettered after maxAttempts", async () => {
  await enqueue("test.flaky", { key: "flaky-worker", failures: 1 });
  const doomed = await enqueue("test.flaky", { key: "doomed-worker", failures: 99 }, { maxAttempts: 2 });
  await eventually(() => marked(q.store, "flaky-worker"));
  expect(marked(q.store, "flaky-worker")?.attempt).toBe(2);
  const dead = await eventually(() => deadJobs(q.store).find((job) => job.id === doomed));
  expect(dead).toMatchObject({ attempts: 2, lastError: "failure 2" });
});

test("a job of an unknown type is buried at once", async () => {
  const id = await enqueue("no.such.type", {});
  const dead = await eventually(() => deadJobs(q.store).find((job) => job.id === id));
  expect(dead).toMatchObject({ attempts: 1, lastError: "no handler for job type no.such.type" });
});

test("a worker that crashes is replaced and its job retried", async () => {
  await enqueue("test.crash", { key: "crashed" });
  const mark = await eventually(() => marked(q.store, "crashed"));
  expect(mark.attempt).toBe(2);
  // The pool is whole again: once the replacement has started, two jobs at once land on two threads.
  let threads = new Set<number>();
  for (let round = 0; round < 10 && threads.size < 2; round++) {
    const keys = [`after-crash-${round}-a`, `after-crash-${round}-b`];
    await q.store.write(() => keys.forEach((key) => q.jobs.enqueue("test.sleep", { key, ms: 200 })));
    const marks = await eventually(() => {
      const both = keys.map((key) => marked(q.store, key));
      return both.every(Boolean) && both;
    });
    threads = new Set(marks.map((mark) => mark!.thread));
  }
  expect(threads.size).toBe(2);
});

test("a job over its time limit fails, its worker is replaced, and the retry succeeds", async () => {
  await enqueue("test.hang", { key: "hung-worker" });
  const mark = await eventually(() => marked(q.store, "hung-worker"));
  expect(mark.attempt).toBe(2);
});

test("stop releases a job still running after the grace period and terminates the workers", async () => {
  const other = await openTestQueue(1, { stopGraceMs: 100 });
  try {
    await other.store.write(() => other.jobs.enqueue("test.sleep", { key: "cut", ms: 3000 }));
    await eventually(() => marked(other.store, "cut:started"));
    await other.jobs.stop();
    expect(claimedJobs(other.store)).toEqual([]);
    expect(pendingJobs(other.store)).toMatchObject([{ type: "test.sleep", attempts: 0, lastError: null }]);
    // The main thread's store still works after the workers closed their handles.
    await other.store.write(() => other.store.db.meta.put("test:after", 1));
    expect(other.store.db.meta.get("test:after")).toBe(1);
    expect(marked(other.store, "cut")).toBeUndefined();
  } finally {
    await other.close();
  }
});
