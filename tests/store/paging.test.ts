// src/store/paging.ts on a real keyspace: Mastodon's cursor paging (max_id, since_id, min_id, limit; min_id
// wins over since_id), rows a filter rejects skipped without counting, and the row budget that stops a
// filtered scan and remembers where.
import { expect, test } from "bun:test";
import { RowBudget } from "../../src/model/paging.ts";
import { scanPage } from "../../src/store/paging.ts";
import { tempStore } from "../helpers/temp-store.ts";

const store = tempStore("paging");
const ids = Array.from({ length: 10 }, (_, i) => String(1000 + i));
await store.write(() => {
  for (const id of ids) store.db.followersIndex.put(["target", id], `account-${id}`);
  // rows of another prefix, on both sides, must never show
  store.db.followersIndex.put(["targes", "1005"], "before");
  store.db.followersIndex.put(["targetz", "1005"], "after");
});
const page = (query: Parameters<typeof scanPage>[2], accept?: (row: { key: any[] }) => boolean) =>
  scanPage<string>(store.db.followersIndex, ["target"], query, accept).map((row) => row.key[1]);

test("newest first, limited", () => {
  expect(page({ limit: 3 })).toEqual(["1009", "1008", "1007"]);
  expect(page({ limit: 100 })).toEqual([...ids].reverse());
  expect(page({ limit: 0 })).toEqual([]);
});

test("max_id: strictly older; since_id: strictly newer, the newest page above it", () => {
  expect(page({ limit: 3, maxId: "1005" })).toEqual(["1004", "1003", "1002"]);
  expect(page({ limit: 3, sinceId: "1002" })).toEqual(["1009", "1008", "1007"]);
  expect(page({ limit: 20, maxId: "1005", sinceId: "1002" })).toEqual(["1004", "1003"]);
});

test("min_id: the page just above it, still newest first; since_id is then ignored", () => {
  expect(page({ limit: 3, minId: "1002" })).toEqual(["1005", "1004", "1003"]);
  expect(page({ limit: 3, minId: "1002", sinceId: "1007" })).toEqual(["1005", "1004", "1003"]);
  expect(page({ limit: 3, minId: "1006", maxId: "1009" })).toEqual(["1008", "1007"]);
});

test("cursors that name no row, or lie outside, still bound the page", () => {
  expect(page({ limit: 3, maxId: "1004x" })).toEqual(["1004", "1003", "1002"]);
  expect(page({ limit: 3, maxId: "0" })).toEqual([]);
  expect(page({ limit: 3, minId: "9999" })).toEqual([]);
});

test("rows a filter rejects do not count against the limit", () => {
  expect(page({ limit: 3 }, (row) => Number(row.key[1]) % 2 === 0)).toEqual(["1008", "1006", "1004"]);
});

test("the row budget stops a filtered scan and remembers where, going older or newer", () => {
  const older = new RowBudget(4);
  expect(page({ limit: 3, budget: older }, () => false)).toEqual([]);
  expect({ examined: older.examined, stoppedAt: older.stoppedAt, going: older.stoppedGoing }).toEqual({ examined: 4, stoppedAt: "1006", going: "older" });
  const newer = new RowBudget(2);
  expect(page({ limit: 3, minId: "1000", budget: newer }, () => false)).toEqual([]);
  expect({ stoppedAt: newer.stoppedAt, going: newer.stoppedGoing }).toEqual({ stoppedAt: "1002", going: "newer" });
});

test("a budget that is not spent leaves no stop behind", () => {
  const budget = new RowBudget(100);
  expect(page({ limit: 5, budget })).toHaveLength(5);
  expect(budget.stoppedAt).toBeNull();
});
