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
    const workers = Array.from({ length: 3 }, () => new Worker(new URL("./fixtures/hold-snapshots.ts", import.meta.url).href));
    const next = (worker: Worker) => new Promise<any>((resolve) => (worker.onmessage = ({ data }) => resolve(data)));
    const results = await Promise.all(
      workers.map((worker) => {
        const reported = next(worker);
        worker.postMessage({ dir, count: 64 });
        return reported;
      }),
    );
    await writing;
    expect(results).toEqual(Array.from({ length: 3 }, () => ({ held: 64, error: null })));
    // Every thread held its snapshots until now; then each releases them and closes its store.
    await Promise.all(
      workers.map(async (worker) => {
        const closed = next(worker);
        worker.postMessage("release");
        expect(await closed).toEqual({ closed: true });
        worker.terminate();
      }),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
