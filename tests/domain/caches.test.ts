// The index of caches (src/domain/caches/index.ts): every tier is listed once, every versioned tier is
// registered by the module that keeps it, the architecture page shows the same table, and the one
// invalidation mechanism works: a bump of a version a value depends on makes the next read miss, a bump of
// anything else leaves it kept.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "../../src/app.ts";
import { CACHE_TIERS, registeredCaches } from "../../src/domain/caches/index.ts";
import { VersionedCache } from "../../src/domain/caches/versioned.ts";
import { viewerFacts } from "../../src/domain/timelines/viewer-facts.ts";
import { openStore } from "../../src/store/db.ts";
import { putHomeEntry } from "../../src/store/timelines.ts";
import { versionName } from "../../src/store/versions.ts";

const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "warren-caches-"));
const store = openStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ID = (n: number) => String(n).padStart(18, "0");
const putHome = (viewer: string, status: number) => store.write(() => putHomeEntry(store, viewer, ID(status), { authorId: ID(1), reblogOfId: null }));
/** Bumps `v:` of the blocker (and of the blocked), as a block does. */
const block = (blocker: string, target: string) => store.write(() => store.db.blocks.put([blocker, target], { createdAt: Date.now() }));

test("every tier is listed once, in a file that exists", () => {
  const names = CACHE_TIERS.map((tier) => tier.name);
  expect(new Set(names).size).toBe(names.length);
  for (const tier of CACHE_TIERS) expect(existsSync(join(ROOT, tier.file))).toBe(true);
});

test("every versioned tier is registered by the code that keeps it, and nothing unlisted is", () => {
  const registered = registeredCaches();
  const versioned = CACHE_TIERS.filter((tier) => tier.mechanism === "versions").map((tier) => tier.name);
  expect(versioned.length).toBeGreaterThanOrEqual(11);
  for (const name of versioned) expect([...registered]).toContain(name);
  const listed = new Set<string>(CACHE_TIERS.map((tier) => tier.name));
  for (const name of registered) expect(listed.has(name)).toBe(true);
});

test("docs/architecture.md shows every tier with its key, invalidation, bound, thread and file", () => {
  const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  for (const tier of CACHE_TIERS) {
    expect(page).toContain(`| ${tier.name} | ${tier.key} | ${tier.invalidatedBy} | ${tier.bound} | ${tier.thread} | \`${tier.file}\` |`);
  }
});

test("a versioned value is read again after a bump of what it depends on, and only then", async () => {
  const viewer = ID(10);
  const cache = new VersionedCache<number>("accounts", 10);
  let loads = 0;
  const read = () => cache.get(store, "k", () => ({ value: ++loads, depends: [versionName.home(viewer)] })).value;
  expect(read()).toBe(1);
  expect(read()).toBe(1);
  await putHome(ID(11), 100); // another viewer's home
  expect(read()).toBe(1);
  await putHome(viewer, 101);
  expect(read()).toBe(2);
  expect(read()).toBe(2);
});

test("nothing read inside a write transaction is kept", async () => {
  const cache = new VersionedCache<number>("accounts", 10);
  let loads = 0;
  const read = () => cache.get(store, "k", () => ({ value: ++loads, depends: [versionName.home(ID(12))] })).value;
  await store.write(() => {
    putHomeEntry(store, ID(12), ID(102), { authorId: ID(1), reblogOfId: null });
    expect(read()).toBe(1);
  });
  expect(read()).toBe(2);
  expect(read()).toBe(2);
});

test("a cache keeps apart the entries of two stores under one key", () => {
  const otherDir = mkdtempSync(join(tmpdir(), "warren-caches-other-"));
  const other = openStore(otherDir);
  try {
    const cache = new VersionedCache<string>("accounts", 10);
    expect(cache.get(store, "k", () => ({ value: "first", depends: [] })).value).toBe("first");
    expect(cache.get(other, "k", () => ({ value: "second", depends: [] })).value).toBe("second");
    expect(cache.get(store, "k", () => ({ value: "again", depends: [] })).value).toBe("first");
  } finally {
    other.close();
    rmSync(otherDir, { recursive: true, force: true });
  }
});

test("viewer facts are the generic cache's: kept until the viewer's version moves or a mute behind them ends", async () => {
  const viewer = ID(20);
  const facts = viewerFacts(store, viewer);
  facts.hidden.set(ID(21), false);
  expect(viewerFacts(store, viewer)).toBe(facts);
  await block(ID(30), ID(31)); // someone else's
  expect(viewerFacts(store, viewer)).toBe(facts);
  await block(viewer, ID(22));
  const afterBlock = viewerFacts(store, viewer);
  expect(afterBlock).not.toBe(facts);
  expect(afterBlock.hidden.size).toBe(0);
  afterBlock.until = Date.now() - 1; // a mute that decided an answer has ended
  expect(viewerFacts(store, viewer)).not.toBe(afterBlock);
});
