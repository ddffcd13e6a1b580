// Migration 4: home rows stored as msgpack records under [viewerId, statusId] (home_feed) move into the
// packed, sorted duplicates of the home keyspace, and home_feed is emptied.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import { homeHas, homeShowsRecently, pageHomeFeed, removeHomeEntry } from "../../src/store/timelines.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-home-rows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = (n: number) => String(n).padStart(18, "0");
const VIEWER = ID(7);

test("old home rows are moved, read back newest first, reblogs found, and the old keyspace emptied", async () => {
  const before = openStore(dir);
  // Point checks read the status record (its author and what it wraps): only the fields they use.
  const status = (id: string, accountId: string, reblogOfId: string | null) => before.db.statuses.put(id, { id, accountId, reblogOfId });
  await before.write(() => {
    before.db.meta.put("schema_version", 3);
    for (let n = 1; n <= 30; n++) {
      before.db.legacyHomeFeed.put([VIEWER, ID(1000 + n)], { authorId: ID(n % 3), reblogOfId: null });
      status(ID(1000 + n), ID(n % 3), null);
    }
    before.db.legacyHomeFeed.put([VIEWER, ID(2000)], { authorId: ID(5), reblogOfId: ID(1001) });
    status(ID(2000), ID(5), ID(1001));
    before.db.legacyHomeFeed.put([ID(8), ID(1001)], { authorId: ID(1), reblogOfId: null });
  });
  await before.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(4);
    expect([...store.db.legacyHomeFeed.getKeys()].filter(Array.isArray)).toEqual([]);
    const page = pageHomeFeed(store, VIEWER, { limit: 3 }, () => true).map((row) => [row.key[1], row.value]);
    expect(page).toEqual([
      [ID(2000), null],
      [ID(1030), null],
      [ID(1029), null],
    ]);
    const ids = (query: Parameters<typeof pageHomeFeed>[2]) => pageHomeFeed(store, VIEWER, query, () => true).map((row) => row.key[1]);
    expect(ids({ limit: 2, maxId: ID(1010) })).toEqual([ID(1009), ID(1008)]);
    expect(ids({ limit: 2, minId: ID(1010) })).toEqual([ID(1012), ID(1011)]);
    expect(ids({ limit: 5, sinceId: ID(1029) })).toEqual([ID(2000), ID(1030)]);
    expect(ids({ limit: 40, minId: ID(1027), maxId: ID(2000) })).toEqual([ID(1030), ID(1029), ID(1028)]);
    expect(homeHas(store, ID(8), ID(1001))).toBe(true);
    // The reblog's original is the 31st newest row: shown recently within 40 rows, not within 20.
    expect(homeShowsRecently(store, VIEWER, ID(1001), 40)).toBe(true);
    expect(homeShowsRecently(store, VIEWER, ID(1001), 20)).toBe(true); // through the reblog, the newest row
    await store.write(() => expect(removeHomeEntry(store, VIEWER, ID(2000))).toBe(true));
    expect(homeShowsRecently(store, VIEWER, ID(1001), 20)).toBe(false);
    expect(homeHas(store, VIEWER, ID(2000))).toBe(false);
    expect(homeHas(store, VIEWER, ID(1001))).toBe(true);
  } finally {
    await store.close();
  }
});
