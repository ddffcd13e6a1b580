// LMDB's reader table is large enough for the snapshots Warren's threads hold at once: three threads (the
// main thread and two job workers, the default) each holding a lane's worth of concurrent snapshots (64)
// plus a write stream went past LMDB's default 126 slots and failed with MDB_READERS_FULL.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";

test("three threads holding 64 snapshots each, while writes commit, never run out of reader slots", async () => {
  const dir = mkdtempSync(join(tmpdir(), "warren-readers-"));
  const store = openStore(dir);
  try {
    for (let i = 0; i < 10; i++) await store.write(() => store.db.meta.put(`row-${i}`, i));
    const writing = (async () => {
      for (let i = 0; i < 200; i++) await store.write(() => store.db.meta.put(`w-${i % 10}`, i));
    })();
    const results = await Promise.all(
      Array.from({ length: 3 }, () => {
        const worker = new Worker(new URL("./fixtures/hold-snapshots.ts", import.meta.url).href);
        return new Promise<{ held: number; error: string | null }>((resolve) => {
          worker.onmessage = ({ data }) => {
            resolve(data);
            setTimeout(() => worker.terminate(), 500);
          };
          worker.postMessage({ dir, count: 64 });
        });
      }),
    );
    await writing;
    expect(results).toEqual(Array.from({ length: 3 }, () => ({ held: 64, error: null })));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
