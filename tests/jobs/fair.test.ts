// The fair share of a lane with a per-group limit (media: one upload per account at a time): which due jobs
// a claim takes. The end-to-end behaviour, with worker threads and ffmpeg, is in
// tests/http/media-processing-limits.test.ts.
import { describe, expect, test } from "bun:test";
import { FairShare } from "../../src/jobs/fair.ts";
import type { JobRecord } from "../../src/model/jobs.ts";

let id = 0;
const job = (group?: string): JobRecord => ({
  v: 2, id: String(++id), type: "media.process", lane: "media", payload: {}, attempts: 0, maxAttempts: 8,
  createdAt: id, runAt: id, lastError: null, ...(group !== undefined && { group }),
});
const groups = (jobs: JobRecord[]) => jobs.map((j) => j.group ?? "-");

describe("FairShare", () => {
  test("at most perGroup of a group, counting those running; jobs without a group are never held back", () => {
    const fair = new FairShare();
    const due = [job("a"), job("a"), job(), job("b")];
    expect(groups(fair.pick(due, new Map([["a", 1]]), 1, 4))).toEqual(["-", "b"]);
    expect(groups(new FairShare().pick(due, new Map(), 2, 4))).toEqual(["a", "-", "b", "a"]);
  });

  test("the group served least recently goes first, whatever the age of its jobs", () => {
    const fair = new FairShare();
    const a = [job("a"), job("a"), job("a")];
    expect(groups(fair.pick(a, new Map(), 1, 1))).toEqual(["a"]);
    // a's next job is older than b's, but b has not had a turn yet.
    const due = [a[1]!, a[2]!, job("b")];
    expect(groups(fair.pick(due, new Map(), 1, 1))).toEqual(["b"]);
    expect(groups(fair.pick(due, new Map(), 1, 2))).toEqual(["a", "b"]);
  });
});
