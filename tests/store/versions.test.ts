// Versions: every write that changes what a version names bumps it, in its own transaction, once however
// many of its records it changes (fan-out puts many rows into one home per write).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { putHomeEntry } from "../../src/store/timelines.ts";
import { readVersions, versionName } from "../../src/store/versions.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-versions-"));
const store = openStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ID = (n: number) => String(n).padStart(18, "0");
const VIEWER = ID(7);
const homeVersion = () => readVersions(store, [versionName.home(VIEWER)]).versions![0]!;
const putRows = (...statuses: number[]) => {
  for (const n of statuses) putHomeEntry(store, VIEWER, ID(n), { authorId: ID(1), reblogOfId: null });
};

test("a write bumps a version once however many rows it puts; every write bumps it again", async () => {
  const before = homeVersion();
  await store.write(() => putRows(100, 101, 102));
  expect(homeVersion()).toBe(before + 1);
  // Two writes of one turn share a commit, but each is a transaction of its own: each bumps.
  await Promise.all([store.write(() => putRows(103)), store.write(() => putRows(104, 105))]);
  expect(homeVersion()).toBe(before + 3);
});

test("a write that throws takes its bump back with it; its neighbour in the commit still bumps", async () => {
  const before = homeVersion();
  const failing = store.write(() => {
    putRows(106);
    throw new Error("half-way");
  });
  await Promise.all([failing.catch(() => {}), store.write(() => putRows(107))]);
  expect(homeVersion()).toBe(before + 1);
});
