// `warren compact` on search_postings, whose rows are MDB_DUPFIXED duplicates (docs/disk.md): LMDB splits a
// full page of them in halves, so put in order they took ~16 bytes a posting; compact puts them in
// fillingOrder (store/compact.ts), and the copy holds the same postings in about 8.5 bytes each.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/db.ts";
import { compactEnvironment } from "../../src/store/compact.ts";
import { countStatusPostings, statusPostings } from "../../src/store/search-index.ts";
import { statusRow } from "../../src/store/search-rows.ts";
import { idAtTime } from "../../src/lib/ids.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-compact-postings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ["apple", "brook", "cedar", "delta"];
const PER_WORD = 30_000;

const postingsOf = (store: Store) => WORDS.map((word) => [...statusPostings(store, word)]);

test("compact keeps every posting, in order, and fills the pages of their sub-trees", async () => {
  let store = openStore(dir);
  await store.write(() => {
    for (const [w, word] of WORDS.entries()) {
      for (let i = 0; i < PER_WORD; i++) store.db.searchPostings.put(`s${word}`, statusRow(idAtTime(1_700_000_000_000 + i * 7 + w)));
    }
  });
  const before = JSON.stringify(postingsOf(store));
  await store.close();

  await compactEnvironment(dir, () => {});
  store = openStore(dir);
  try {
    expect(JSON.stringify(postingsOf(store))).toBe(before);
    for (const word of WORDS) expect(countStatusPostings(store, word)).toBe(PER_WORD);
    // 8 bytes a posting in pages filled to ~96%, and the few pages of everything else: ~16 when half full.
    const bytesPerPosting = statSync(join(dir, "warren.lmdb")).size / (WORDS.length * PER_WORD);
    expect(bytesPerPosting).toBeLessThan(10);
  } finally {
    await store.close();
  }
});
