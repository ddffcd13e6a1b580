// Migration 2: jobs queued before lanes existed (keyed [runAt, jobId], records without a lane) move into the
// `default` lane when the store is opened, and then run like any other.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openJobQueue } from "../../src/compose.ts";
import { openStore } from "../../src/store/db.ts";
import { claimedJobs, deadJobs, pendingJobs } from "../../src/store/jobs.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import { marked, TEST_HANDLERS } from "./fixtures/queue.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-jobs-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const oldJob = (id: string, key: string, runAt: number) => ({
  v: 1, id, type: "test.mark", payload: { key }, attempts: 0, maxAttempts: 8, createdAt: runAt, runAt, lastError: null,
});

test("jobs of schema 1 are re-keyed into the default lane and run", async () => {
  const now = Date.now();
  const before = openStore(dir);
  // What a schema-1 store held: a waiting job, a claimed one (of a process long gone) and a dead one.
  await before.write(() => {
    before.db.meta.put("schema_version", 1);
    before.db.jobs.put([now, "000000000000000001"], oldJob("000000000000000001", "waiting", now));
    before.db.jobsClaimed.put("000000000000000002", { ...oldJob("000000000000000002", "claimed", now), attempts: 1, claimedAt: now, owner: 2 ** 22 + 17 });
    before.db.jobsDead.put("000000000000000003", { ...oldJob("000000000000000003", "dead", now), diedAt: now });
  });
  await before.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(2);
    expect(pendingJobs(store)).toMatchObject([{ v: 2, id: "000000000000000001", lane: "default", runAt: now }]);
    expect([...store.db.jobs.getKeys({})].filter((key) => Array.isArray(key))).toEqual([["default", now, "000000000000000001"]]);
    expect(claimedJobs(store)).toMatchObject([{ v: 2, lane: "default", attempts: 1 }]);
    expect(deadJobs(store)).toMatchObject([{ v: 2, lane: "default" }]);

    const config = loadConfig({ WARREN_DATA_DIR: dir, WARREN_JOB_WORKERS: "0", WARREN_JOB_HANDLERS_EXTRA: TEST_HANDLERS });
    const jobs = openJobQueue(store, config);
    await jobs.start();
    await jobs.drain();
    await jobs.stop();
    expect(marked(store, "waiting")?.attempt).toBe(1);
    expect(marked(store, "claimed")?.attempt).toBe(2);
    expect(jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 1 });
  } finally {
    await store.close();
  }
});
