// The version log: each write's bumped names are logged in its transaction, and a thread checks cached values
// against its mirror of the log, including when another handle on the environment (another thread, the CLI)
// wrote, and when the entries it missed have been trimmed.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { putHomeEntry } from "../../src/store/timelines.ts";
import { readVersions, versionName, versionsUnchanged } from "../../src/store/versions.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-version-log-"));
const store = openStore(dir);
/** A second handle, as a worker thread or the CLI has: its own mirror of the log. */
const other = openStore(dir, { migrate: false });
afterAll(async () => {
  await other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ID = (n: number) => String(n).padStart(18, "0");
const put = (viewer: number, status: number) => putHomeEntry(store, ID(viewer), ID(status), { authorId: ID(1), reblogOfId: null });
const home = (viewer: number) => versionName.home(ID(viewer));
const lastLogged = () => [...store.db.versionLog.getRange({ reverse: true, limit: 1 })][0]!;

test("a write logs the names it bumped once, in its own transaction; a write that throws logs nothing", async () => {
  await store.write(() => {
    put(1, 100);
    put(1, 101);
    put(2, 100);
  });
  const entry = lastLogged();
  expect(entry.value).toEqual([home(1), home(2)]);
  await store.write(() => put(3, 100)).catch(() => {});
  const failing = store.write(() => {
    put(4, 100);
    throw new Error("half-way");
  });
  await failing.catch(() => {});
  expect(lastLogged().key).toBe((entry.key as number) + 1);
  expect(lastLogged().value).toEqual([home(3)]);
});

test("a value read before a write is found changed if the write bumped one of its names, and only then", async () => {
  other.freshSnapshot();
  const both = readVersions(other, [home(10), home(11)]);
  const untouched = readVersions(other, [home(12)]);
  expect(versionsUnchanged(other, both)).toBe(true);
  await store.write(() => put(11, 200));
  other.freshSnapshot();
  expect(versionsUnchanged(other, both)).toBe(false);
  expect(versionsUnchanged(other, untouched)).toBe(true);
  // Writes to other names leave it current, and its later checks stay answered by the mirror.
  await store.write(() => put(13, 200));
  other.freshSnapshot();
  expect(versionsUnchanged(other, untouched)).toBe(true);
});

test("a handle that missed trimmed log entries still tells changed from unchanged", async () => {
  other.freshSnapshot();
  const changed = readVersions(other, [home(20)]);
  const unchanged = readVersions(other, [home(21)]);
  // More writes than the log keeps (4,096), none read by `other` until the end; the first bumps home 20.
  await store.write(() => put(20, 300));
  await Promise.all(Array.from({ length: 4200 }, (_, i) => store.write(() => put(30 + (i % 50), 400 + i))));
  other.freshSnapshot();
  expect(versionsUnchanged(other, changed)).toBe(false);
  expect(versionsUnchanged(other, unchanged)).toBe(true);
  expect(store.db.versionLog.getCount()).toBeLessThanOrEqual(4096);
});

test("inside a write, checks see the write's own bumps", async () => {
  const read = readVersions(store, [home(40)]);
  const seen = await store.write(() => {
    put(40, 500);
    return versionsUnchanged(store, read);
  });
  expect(seen).toBe(false);
});

test("kept records: a record read through one handle is read again once another handle rewrote or removed it", async () => {
  const { getStatus } = await import("../../src/store/statuses.ts");
  const id = ID(900);
  const record = (text: string) => ({ id, text }) as never;
  await store.write(() => store.db.statuses.put(id, record("first")));
  other.freshSnapshot();
  expect(getStatus(other, id)?.text).toBe("first");
  expect(getStatus(other, id)).toBe(getStatus(other, id));
  await store.write(() => store.db.statuses.put(id, record("second")));
  other.freshSnapshot();
  expect(getStatus(other, id)?.text).toBe("second");
  await store.write(() => store.db.statuses.remove(id));
  other.freshSnapshot();
  expect(getStatus(other, id)).toBeUndefined();
  // An absent record is kept as absent until one is written under its id.
  await store.write(() => store.db.statuses.put(id, record("third")));
  other.freshSnapshot();
  expect(getStatus(other, id)?.text).toBe("third");
});
