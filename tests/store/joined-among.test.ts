// The viewer's flags for a page read at once (store/statuses-interactions.ts joinedAmong): the same answers as
// a point read per status, whether the range read covers the page or stops at its row budget and the rest are
// read one by one.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { joinedAmong } from "../../src/store/statuses-interactions.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-joined-among-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = (n: number) => String(115_000_000_000_000_000n + BigInt(n));

test("a page's rows come out as point reads would, with and without the range read stopping early", async () => {
  const store = openStore(dir);
  const viewer = ID(7);
  const other = ID(8);
  await store.write(() => {
    // The viewer has a row for every third id from 0 to 300; another account has rows for every id.
    for (let n = 0; n <= 300; n += 3) store.db.favouriteOf.put([viewer, ID(n)], ID(100_000 + n));
    for (let n = 0; n <= 400; n++) store.db.favouriteOf.put([other, ID(n)], ID(200_000 + n));
    store.db.favouriteOf.put([ID(6), ID(150)], ID(300_000));
  });
  const pages = [
    [],
    [ID(150)],
    [ID(151)],
    [ID(0), ID(1), ID(2), ID(3)],
    // Unordered, repeated, and spread over many of the viewer's rows (a budget of 1 row per id stops early).
    [ID(300), ID(12), ID(13), ID(12), ID(299), ID(150), ID(151), ID(303), ID(999)],
    Array.from({ length: 20 }, (_, i) => ID(i * 15 + (i % 2))),
  ];
  for (const page of pages) {
    const expected = new Set(page.filter((id) => store.db.favouriteOf.doesExist([viewer, id])));
    for (const rowsPerId of [0.01, 0.5, 1, 2, 1000]) {
      expect(joinedAmong(store.db.favouriteOf, viewer, page, rowsPerId)).toEqual(expected);
    }
    expect(joinedAmong(store.db.favouriteOf, viewer, page)).toEqual(expected);
  }
  await store.close();
});
