// Keyspaces read through lmdb-js's record cache (statuses, apps) must never answer a value that another
// thread or process has since replaced, neither on a plain read nor inside a write (read-modify-write).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import type { KeyspaceName } from "../../src/store/keys.ts";

const WRITER = join(import.meta.dir, "fixtures", "cache-writer.ts");
const dir = mkdtempSync(join(tmpdir(), "warren-cache-"));
const store = openStore(dir);
const worker = new Worker(WRITER);
afterAll(async () => {
  worker.terminate();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeInWorker(keyspace: KeyspaceName, key: string, value: unknown): Promise<void> {
  return new Promise((resolve) => {
    worker.onmessage = () => resolve();
    worker.postMessage({ dir, keyspace, key, value });
  });
}

async function writeInProcess(keyspace: KeyspaceName, key: string, value: unknown): Promise<void> {
  const child = Bun.spawn([process.execPath, WRITER, dir, keyspace, key, JSON.stringify(value)], { stderr: "inherit" });
  expect(await child.exited).toBe(0);
}

const read = (keyspace: KeyspaceName, key: string) => {
  store.freshSnapshot();
  return store.db[keyspace].get(key);
};

for (const keyspace of ["statuses", "apps"] as const) {
  test(`${keyspace}: a record this thread wrote, then a worker thread replaced, reads as replaced`, async () => {
    const key = `${keyspace}-thread`;
    await store.write(() => store.db[keyspace].put(key, { n: 1 }));
    expect(read(keyspace, key)).toEqual({ n: 1 });
    await writeInWorker(keyspace, key, { n: 5 });
    expect(read(keyspace, key)).toEqual({ n: 5 });
    // read-modify-write, as a counter does
    const seen = await store.write(() => {
      const current = store.db[keyspace].get(key) as { n: number };
      store.db[keyspace].put(key, { n: current.n + 1 });
      return current.n;
    });
    expect(seen).toBe(5);
    await writeInWorker(keyspace, key, { n: 9 });
    expect(read(keyspace, key)).toEqual({ n: 9 });
  });

  test(`${keyspace}: a record replaced by another process reads as replaced`, async () => {
    const key = `${keyspace}-process`;
    await store.write(() => store.db[keyspace].put(key, { n: 1 }));
    expect(read(keyspace, key)).toEqual({ n: 1 });
    await writeInProcess(keyspace, key, { n: 7 });
    expect(read(keyspace, key)).toEqual({ n: 7 });
    expect(await store.write(() => store.db[keyspace].get(key))).toEqual({ n: 7 });
  });
}

test("a read-filled cache entry is still answered while nothing changed it", async () => {
  await store.write(() => store.db.statuses.put("unchanged", { n: 1 }));
  const first = read("statuses", "unchanged");
  expect(read("statuses", "unchanged")).toBe(first);
});
