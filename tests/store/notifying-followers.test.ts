// Migration 5: follows made with notify=true before the index existed are indexed; others are not.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import { notifyingFollowerIds } from "../../src/store/relationships.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-notifying-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = (n: number) => String(n).padStart(18, "0");

test("existing notifying follows are indexed by the migration", async () => {
  const before = openStore(dir);
  const follow = (n: number, follower: number, target: number, notify: boolean) =>
    before.db.follows.put([ID(follower), ID(target)], {
      v: 1, id: ID(n), accountId: ID(follower), targetId: ID(target), reblogs: true, notify, languages: null, createdAt: 0, uri: null,
    });
  await before.write(() => {
    before.db.meta.put("schema_version", 4);
    follow(100, 1, 9, true);
    follow(101, 2, 9, false);
    follow(102, 3, 9, true);
    follow(103, 3, 8, true);
  });
  await before.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(5);
    expect(notifyingFollowerIds(store, ID(9))).toEqual([ID(1), ID(3)]);
    expect(notifyingFollowerIds(store, ID(8))).toEqual([ID(3)]);
    expect(notifyingFollowerIds(store, ID(7))).toEqual([]);
  } finally {
    await store.close();
  }
});
