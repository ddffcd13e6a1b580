// Every keyspace bounds its keys (src/store/key-bounds.ts): a key LMDB could not store (over 1978 bytes,
// counted in UTF-8 with one separator byte per array element) is found nowhere, ranges and counts over it are
// empty, removing it removes nothing, and writing it throws KeyTooLong (422) with nothing of the write kept.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { END, openStore } from "../../src/store/db.ts";
import { KeyTooLong, MAX_KEY_BYTES, keyFits } from "../../src/store/key-bounds.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-store-"));
const store = openStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the bound is lmdb-js's, and keyFits counts as LMDB does", async () => {
  expect((store.db.meta as unknown as { maxKeySize: number }).maxKeySize).toBe(MAX_KEY_BYTES);
  // The longest keys that fit, of each shape: stored and read back; one byte more is refused.
  const fitting: unknown[] = ["a".repeat(1978), ["a".repeat(1976), "b"], ["é".repeat(988), "b"], ["日".repeat(658), "ab"], ["tag:" + "a".repeat(1955), "000000000000000001"]];
  for (const key of fitting) {
    expect(keyFits(key)).toBe(true);
    await store.write(() => store.db.meta.put(key as string, "kept"));
    expect(store.db.meta.get(key as string)).toBe("kept");
  }
  const tooLong: unknown[] = ["a".repeat(1979), ["a".repeat(1977), "b"], ["é".repeat(989), "b"], ["日".repeat(659), "ab"], ["😀".repeat(495)], ["a".repeat(1969), 123456789012]];
  for (const key of tooLong) expect(keyFits(key)).toBe(false);
});

test("a lookup by a key too long to exist finds nothing, in every form", async () => {
  const key = ["tag:" + "日".repeat(1000), "x"];
  const prefix = key[0]!;
  const { publicFeeds, searchPostings } = store.db;
  expect(publicFeeds.get(key)).toBeUndefined();
  expect(publicFeeds.getEntry(key)).toBeUndefined();
  expect(publicFeeds.doesExist(key)).toBe(false);
  expect([...publicFeeds.getRange({ start: [prefix], end: [prefix, END] })]).toEqual([]);
  expect(publicFeeds.getRange({ start: [prefix], end: [prefix, END] }).map((entry) => entry.key).asArray as unknown).toEqual([]);
  expect([...publicFeeds.getKeys({ start: [prefix, END], end: [prefix], reverse: true })]).toEqual([]);
  expect(publicFeeds.getCount({ start: [prefix], end: [prefix, END] })).toBe(0);
  expect([...searchPostings.getValues("s" + "a".repeat(3000))]).toEqual([]);
  expect(searchPostings.getValuesCount("s" + "a".repeat(3000))).toBe(0);
  await store.write(() => expect(publicFeeds.remove(key) as unknown).toBe(false));
});

test("writing a key too long to store is KeyTooLong (422), and the write leaves nothing", async () => {
  const write = store.write(() => {
    store.db.meta.put("written first", true);
    store.db.tagDays.put(["日".repeat(700), 1], { uses: 1, accounts: 1 });
  });
  await expect(write).rejects.toBeInstanceOf(KeyTooLong);
  await write.catch((error: KeyTooLong) => expect([error.status, error.body()]).toEqual([422, { error: "Validation failed: a name or address in this request is too long" }]));
  expect(store.db.meta.get("written first")).toBeUndefined();
});
