// The data format chain: a data directory at format 1 (the oldest one written: jobs keyed [runAt, jobId] with
// the pre-events job types, home rows as records in home_feed, follows not yet indexed by "notify") is brought
// to DATA_FORMAT_VERSION on open, and every migration step is idempotent (a second run changes nothing, as
// after a crash between a step and the commit recording it).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/db.ts";
import { DATA_FORMAT_VERSION, pendingMigrations, runMigrationStep, schemaVersion } from "../../src/store/migrations.ts";
import { KEYSPACES, type KeyspaceName } from "../../src/store/keys.ts";
import { pendingJobs } from "../../src/store/jobs.ts";
import { pageHomeFeed } from "../../src/store/timelines.ts";

const root = mkdtempSync(join(tmpdir(), "warren-migrations-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = (n: number) => String(n).padStart(18, "0");
const NOW = 1_700_000_000_000;

/** What Warren wrote at data format 1. */
async function formatOneStore(dir: string): Promise<Store> {
  const store = openStore(dir, { migrate: false });
  await store.write(() => {
    store.db.meta.put("schema_version", 1);
    const job = { v: 1, id: ID(1), type: "status.created", payload: { statusId: ID(100) }, attempts: 0, maxAttempts: 8, createdAt: NOW, runAt: NOW, lastError: null };
    store.db.jobs.put([NOW, ID(1)], job);
    store.db.statuses.put(ID(100), { id: ID(100), accountId: ID(2), reblogOfId: null });
    store.db.legacyHomeFeed.put([ID(7), ID(100)], { authorId: ID(2), reblogOfId: null });
    store.db.follows.put([ID(7), ID(2)], { id: ID(50), accountId: ID(7), targetId: ID(2), notify: true, reblogs: true, createdAt: NOW });
  });
  return store;
}

function dump(store: Store): string {
  const out: Record<string, unknown[]> = {};
  for (const name of Object.keys(KEYSPACES) as KeyspaceName[]) out[name] = [...store.db[name].getRange({})].map(({ key, value }) => [key, value]);
  return JSON.stringify(out);
}

test("data at format 1 opens migrated to the current format, nothing lost", async () => {
  const dir = join(root, "chain");
  await (await formatOneStore(dir)).close();
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBe(DATA_FORMAT_VERSION);
    expect(pendingJobs(store)).toMatchObject([{ id: ID(1), lane: "realtime", type: "timelines.fan_out", runAt: NOW }]);
    expect(pageHomeFeed(store, ID(7), { limit: 5 }, () => true).map((row) => row.key[1])).toEqual([ID(100)]);
    expect(store.db.notifyingFollowers.get([ID(2), ID(7)])).toBeNull();
    expect(store.db.notifyingFollowers.doesExist([ID(2), ID(7)])).toBe(true);
  } finally {
    await store.close();
  }
});

test("each migration run twice leaves what one run leaves", async () => {
  const store = await formatOneStore(join(root, "twice"));
  try {
    const steps = pendingMigrations(1);
    expect(steps.map((s) => s.version)).toEqual(Array.from({ length: DATA_FORMAT_VERSION - 1 }, (_, i) => i + 2));
    for (const { version } of steps) {
      await store.write(() => runMigrationStep(store, version));
      const once = dump(store);
      await store.write(() => runMigrationStep(store, version));
      expect(dump(store)).toBe(once);
    }
  } finally {
    await store.close();
  }
});
