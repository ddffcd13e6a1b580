// `bun bench/home-rows-size.ts`: bytes on disk per home row, the packed rows of home_rows against the msgpack
// records under [viewerId, statusId] that home_feed held before schema 4 (still opened for migration 4), in
// one run. Rows arrive as fan-out writes them: each batch puts one status into many viewers' homes. Measured
// on a compacted copy of the environment (live pages only, as they are filled), per shape of the follow graph.
import { open } from "lmdb";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../src/store/db.ts";
import { putHomeEntry } from "../src/store/timelines.ts";

const BATCH = 2000;
const SHAPES = [
  { viewers: 10_000, rows: 20 },
  { viewers: 1_000, rows: 100 },
  { viewers: 100, rows: 1_000 },
  { viewers: 20, rows: 5_000 },
];
const id = (n: number) => String(n).padStart(18, "0");

/** Bytes of a compacted copy of a store written by `fill`. */
async function compactedBytes(fill: (store: ReturnType<typeof openStore>) => Promise<void>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "warren-rows-"));
  try {
    const store = openStore(dir);
    await fill(store);
    await store.close();
    const env = open({ path: join(dir, "warren.lmdb"), readOnly: true });
    await env.backup(join(dir, "copy.lmdb"), true);
    await env.close();
    return statSync(join(dir, "copy.lmdb")).size;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rowsOf(shape: { viewers: number; rows: number }, put: (store: ReturnType<typeof openStore>, viewerId: string, statusId: string, authorId: string) => void) {
  return compactedBytes(async (store) => {
    const all: [number, number][] = [];
    for (let r = 0; r < shape.rows; r++) for (let v = 0; v < shape.viewers; v++) all.push([v, r]);
    for (let i = 0; i < all.length; i += BATCH) {
      await store.write(() => {
        for (const [v, r] of all.slice(i, i + BATCH)) put(store, id(1e14 + v), id(2e16 + r * 65536), id(1e14 + (v % 37)));
      });
    }
  });
}

const empty = await compactedBytes(async () => {});
console.log("viewers × rows each   home_feed (before) B/row   home_rows B/row   ratio");
for (const shape of SHAPES) {
  const total = shape.viewers * shape.rows;
  const before = (await rowsOf(shape, (store, viewerId, statusId, authorId) => store.db.legacyHomeFeed.put([viewerId, statusId], { authorId, reblogOfId: null }))) - empty;
  const after = (await rowsOf(shape, (store, viewerId, statusId, authorId) => putHomeEntry(store, viewerId, statusId, { authorId, reblogOfId: null }))) - empty;
  console.log(`${`${shape.viewers} × ${shape.rows}`.padEnd(20)}  ${(before / total).toFixed(1).padStart(24)}  ${(after / total).toFixed(1).padStart(15)}  ${(after / before).toFixed(2).padStart(6)}`);
}
