// A record read inside a write transaction, from a page that transaction had already changed (a neighbour put
// before it), must not be answered again from lmdb-js's record cache once another thread has replaced it. Such
// a page carries the transaction's work id, not a commit id, and a later commit is given that very id: lmdb-js
// kept the record under it, so a record another thread replaced in that commit passed the cache's check and
// was answered stale (a quote accepted by a job on a worker read as quotes_count 0 by the next GET, until some
// other write changed the page; tests/http/quotes-settled-in-worker.test.ts). The id the page carried is what
// lmdb-js's getLastTxnId() reports after the read, which is how the test knows which commit to replace it in.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lmdb from "lmdb";
import { openStore } from "../../src/store/db.ts";
import type { WriteAt } from "./fixtures/write-at-commit.ts";

const pageTxnId = () => (lmdb as unknown as { getLastTxnId(): number }).getLastTxnId();

const dir = mkdtempSync(join(tmpdir(), "warren-cache-in-write-"));
const store = openStore(dir);
const worker = new Worker(join(import.meta.dir, "fixtures", "write-at-commit.ts"));
afterAll(async () => {
  worker.terminate();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeInWorkerAt(order: Omit<WriteAt, "dir">): Promise<number> {
  return new Promise((resolve) => {
    worker.onmessage = (event: MessageEvent<number>) => resolve(event.data);
    worker.postMessage({ dir, ...order });
  });
}

const read = (keyspace: "statuses" | "apps", key: string) => {
  store.freshSnapshot();
  return store.db[keyspace].get(key);
};

for (const keyspace of ["statuses", "apps"] as const) {
  for (const readBefore of [true, false]) {
    test(`${keyspace}: read inside a write after a neighbour's put (${readBefore ? "kept by a read before" : "never read before"}), then replaced by a worker thread in the commit the page's id names, reads as replaced`, async () => {
      const key = `${keyspace}-${readBefore}`;
      await store.write(() => store.db[keyspace].put(key, { n: 1 }));
      if (readBefore) expect(read(keyspace, key)).toEqual({ n: 1 });
      // As posting a quote does: the new record is put, then the quoted one (on the same page) is read.
      const { seen, page } = await store.write(() => {
        store.db[keyspace].put(`${key}+`, { n: 0 });
        return { seen: store.db[keyspace].get(key), page: pageTxnId() };
      });
      expect(seen).toEqual({ n: 1 });
      const committed = store.lastCommitId();
      // The page's id inside the write is ahead of the commit (LMDB's work id); should it ever name the commit
      // itself, any later commit will do.
      const at = page > committed ? page : committed + 1;
      expect(await writeInWorkerAt({ at, keyspace, key, value: { n: 2 } })).toBe(at);
      expect(read(keyspace, key)).toEqual({ n: 2 });
    });
  }
}
