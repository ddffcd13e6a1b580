// Lanes and batches, with worker threads on: a lane's jobs wait only for their own lane's places, due jobs are
// claimed and their outcomes recorded many at a time, and a job that failed is retried on its own.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { intoBatches } from "../../src/jobs/lanes.ts";
import { marked, openTestQueue, type TestQueue } from "./fixtures/queue.ts";
import { eventually } from "../helpers/eventually.ts";
import type { ClaimedJob } from "../../src/model/jobs.ts";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue(2);
});
afterAll(() => q.close());

test("a realtime job runs at once while long network jobs hold every worker", async () => {
  await q.store.write(() => {
    for (let i = 0; i < 4; i++) q.jobs.enqueue("test.sleep", { key: `network-${i}`, ms: 2500 }, { lane: "network" });
  });
  await eventually(() => marked(q.store, "network-0:started") && marked(q.store, "network-3:started"));
  const started = Date.now();
  await q.store.write(() => q.jobs.enqueue("test.mark", { key: "realtime" }, { lane: "realtime" }));
  await eventually(() => marked(q.store, "realtime"), { timeoutMs: 2000 });
  expect(Date.now() - started).toBeLessThan(1000);
  expect(marked(q.store, "network-0")).toBeUndefined();
  await q.jobs.drain();
});

test("back-fills hold at most their limit on one of two workers, and a default job does not wait for them", async () => {
  await q.store.write(() => {
    for (let i = 0; i < 10; i++) q.jobs.enqueue("test.sleep", { key: `backfill-${i}`, ms: 1500 }, { lane: "backfill" });
  });
  await eventually(() => marked(q.store, "backfill-0:started"));
  const started = Date.now();
  await q.store.write(() => q.jobs.enqueue("test.mark", { key: "default-lane" }));
  await eventually(() => marked(q.store, "default-lane"), { timeoutMs: 2000 });
  expect(Date.now() - started).toBeLessThan(1000);
  const running = [...Array(10).keys()].filter((i) => marked(q.store, `backfill-${i}:started`));
  expect(running.length).toBe(4); // LANE_POLICY.backfill: 4 in flight, on one worker of two
  await q.jobs.drain();
});

test("due jobs are claimed many in one write, and outcomes reported together recorded in one write", async () => {
  q.jobs.pause();
  await q.store.write(() => {
    for (let i = 0; i < 100; i++) q.jobs.enqueue("test.census", { key: `census-${i}` }, { lane: "realtime" });
  });
  const commitsBefore = q.store.lastCommitId();
  q.jobs.resume();
  await q.jobs.drain();
  const marks = [...Array(100).keys()].map((i) => marked(q.store, `census-${i}`)!);
  expect(marks.every((mark) => mark.attempt === 1)).toBe(true);
  // Claimed one at a time per free worker, no job would ever see more than two claimed.
  expect(Math.max(...marks.map((mark) => mark.claimed!))).toBeGreaterThanOrEqual(50);
  // The handlers' own writes share commits with their batch-mates; claims and outcomes take a few more.
  expect(q.store.lastCommitId() - commitsBefore).toBeLessThan(30);
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
});

test("a job that fails in a batch is retried on its own while its batch-mates complete", async () => {
  q.jobs.pause();
  await q.store.write(() => {
    for (let i = 0; i < 10; i++) q.jobs.enqueue("test.census", { key: `mate-${i}` }, { lane: "realtime" });
    q.jobs.enqueue("test.flaky", { key: "failing-mate", failures: 1 }, { lane: "realtime" });
  });
  q.jobs.resume();
  await eventually(() => marked(q.store, "failing-mate"));
  for (let i = 0; i < 10; i++) expect(marked(q.store, `mate-${i}`)?.attempt).toBe(1);
  expect(marked(q.store, "failing-mate")?.attempt).toBe(2);
  await q.jobs.drain();
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
});

test("jobs of a type with a batch handler run together; a batch that fails is retried job by job", async () => {
  q.jobs.pause();
  await q.store.write(() => {
    for (let i = 0; i < 10; i++) q.jobs.enqueue("test.gather", { key: `gather-${i}` });
  });
  q.jobs.resume();
  await q.jobs.drain();
  const together = [...Array(10).keys()].map((i) => marked(q.store, `gather-${i}`)!.together!);
  expect(together.every((n) => n > 1)).toBe(true); // two workers: two batches of five
  expect(together.reduce((a, b) => a + b, 0)).toBe(50);

  // Four jobs on two workers: batches [0, 1] and [2, 3]; the first fails whole, and its jobs are retried alone.
  q.jobs.pause();
  await q.store.write(() => {
    for (let i = 0; i < 4; i++) q.jobs.enqueue("test.gather", { key: `gather-again-${i}`, fails: i === 0 });
  });
  q.jobs.resume();
  await eventually(() => marked(q.store, "gather-again-0") && marked(q.store, "gather-again-1"));
  await q.jobs.drain();
  const again = [...Array(4).keys()].map((i) => marked(q.store, `gather-again-${i}`)!);
  expect(again.map((mark) => mark.together)).toEqual([1, 1, 2, 2]);
  expect(again.slice(0, 2).map((mark) => mark.attempt)).toEqual([2, 2]);
  expect(q.jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
});

test("batches: spread evenly over the workers with room, never past it, and a retried job alone", () => {
  const job = (id: string, lastError: string | null = null) => ({ id, lastError }) as ClaimedJob;
  const jobs = (...ids: string[]) => ids.map((id) => job(id));
  const placed = (batches: ReturnType<typeof intoBatches>) => batches.map((batch) => [batch.at, batch.jobs.map((j) => j.id)]);
  expect(placed(intoBatches(jobs("a", "b", "c"), [64, 64]))).toEqual([[0, ["a", "b"]], [1, ["c"]]]);
  expect(placed(intoBatches(jobs("a"), [64, 64]))).toEqual([[0, ["a"]]]);
  // Each job to the worker with most room left, so a busier worker gets fewer; what fits nowhere is left out.
  expect(placed(intoBatches(jobs("a", "b", "c", "d"), [15, 16]))).toEqual([[0, ["a", "b"]], [1, ["c", "d"]]]);
  expect(placed(intoBatches(jobs("a", "b", "c"), [14, 16]))).toEqual([[0, ["a"]], [1, ["b", "c"]]]);
  expect(placed(intoBatches(jobs("a", "b", "c", "d", "e"), [2, 1]))).toEqual([[0, ["a", "b"]], [1, ["c"]]]);
  expect(placed(intoBatches([job("a"), job("r", "failure 1"), job("b")], [64]))).toEqual([[0, ["r"]], [0, ["a", "b"]]]);
  expect(placed(intoBatches([job("r", "failure 1"), job("s", "failure 1")], [1, 0]))).toEqual([[0, ["r"]]]);
  expect(placed(intoBatches(jobs("a"), []))).toEqual([]);
});
