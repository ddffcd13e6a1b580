// Rules every reactions table keeps (src/reactions/index.ts): unique names that are known job types, delivery
// out of this server never run for an event that came from elsewhere, and one job type per subscriber.
import { expect, test } from "bun:test";
import { REACTIONS, reactionJobs } from "../../src/reactions/index.ts";

test("every subscriber has a name of its own", () => {
  const names = REACTIONS.map((subscriber) => subscriber.name);
  expect(new Set(names).size).toBe(names.length);
});

test("every subscriber that sends to other servers or pushes is local-only", () => {
  const outgoing = REACTIONS.filter((s) => s.name.startsWith("federation.") || s.name.startsWith("push."));
  expect(outgoing.length).toBeGreaterThan(20);
  expect(outgoing.filter((s) => !s.localOnly).map((s) => s.name)).toEqual([]);
});

test("local-only rows are deliveries, plus the one that ends a local suspended account's follows", () => {
  const others = REACTIONS.filter((s) => s.localOnly && !s.name.startsWith("federation.") && !s.name.startsWith("push."));
  expect(others.map((s) => s.name)).toEqual(["relationships.end_follows_of_suspended"]);
});

test("deliveries run in the network lane, stream signals in the realtime lane", () => {
  expect(REACTIONS.filter((s) => s.name.startsWith("federation.") && s.lane !== "network").map((s) => s.name)).toEqual([]);
  expect(REACTIONS.filter((s) => s.name.startsWith("streaming.") && s.lane !== "realtime").map((s) => s.name)).toEqual([]);
});

test("the job table has a handler and a lane for every subscriber, and the timers beside them", () => {
  const jobs = reactionJobs();
  for (const subscriber of REACTIONS) {
    expect([subscriber.name, typeof jobs.handlers?.[subscriber.name]]).toEqual([subscriber.name, "function"]);
    expect([subscriber.name, jobs.lanes?.[subscriber.name]]).toEqual([subscriber.name, subscriber.lane]);
  }
  expect(Object.keys(jobs.handlers ?? {}).length).toBeGreaterThan(REACTIONS.length);
});

test("only subscribers that can merge their jobs have a batch handler (fan-out)", () => {
  const batched = Object.keys(reactionJobs().batchHandlers ?? {}).sort();
  expect(batched).toEqual(expect.arrayContaining(["timelines.fan_out", "timelines.fan_out_reblog"]));
  expect(batched.every((name) => REACTIONS.find((s) => s.name === name)?.runBatch)).toBe(true);
});
