// Fedify's KvStore on our LMDB store (src/federation/kv.ts), against a real store, with worker threads on.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { LmdbKvStore } from "../../src/federation/kv.ts";
import { openStore } from "../../src/store/db.ts";

let t: TestApp;
let kv: LmdbKvStore;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  kv = new LmdbKvStore(t.deps.store);
});
afterAll(() => t.close());

const all = async (prefix?: readonly [string, ...string[]]) => {
  const out: [readonly string[], unknown][] = [];
  for await (const entry of kv.list(prefix)) out.push([entry.key, entry.value]);
  return out;
};

test("get, set, delete", async () => {
  expect(await kv.get(["a", "b"])).toBeUndefined();
  await kv.set(["a", "b"], { x: 1, list: [1, "two", null], nested: { ok: true } });
  expect(await kv.get(["a", "b"])).toEqual({ x: 1, list: [1, "two", null], nested: { ok: true } });
  await kv.set(["a", "b"], "replaced");
  expect(await kv.get<string>(["a", "b"])).toBe("replaced");
  await kv.delete(["a", "b"]);
  expect(await kv.get(["a", "b"])).toBeUndefined();
  await kv.delete(["a", "b"]);
});

test("TTLs are honoured, and expired entries are swept by later sets", async () => {
  // Long enough that a loaded machine still reads it back before it expires (50 ms did not, once in CI).
  await kv.set(["ttl", "short"], 1, { ttl: Temporal.Duration.from({ milliseconds: 1500 }) });
  await kv.set(["ttl", "long"], 2, { ttl: Temporal.Duration.from({ hours: 1 }) });
  await kv.set(["ttl", "none"], 3);
  expect(await kv.get(["ttl", "short"])).toBe(1);
  await Bun.sleep(1600); // real time: the store's own TTL is under test
  expect(await kv.get(["ttl", "short"])).toBeUndefined();
  expect(await kv.get(["ttl", "long"])).toBe(2);
  expect((await all(["ttl"])).map(([key]) => key.join("/"))).toEqual(["ttl/long", "ttl/none"]);
  await kv.set(["ttl", "other"], 4, { ttl: Temporal.Duration.from({ hours: 1 }) });
  expect(t.deps.store.db.federationKv.get(["v", "ttl", "short"])).toBeUndefined();
  // A set without a TTL clears one set before.
  await kv.set(["ttl", "long"], 5);
  const entries = [...t.deps.store.db.federationKv.getKeys({ start: ["x"], end: ["x", Number.MAX_SAFE_INTEGER] })];
  expect(entries.some((key: any) => key.at(-1) === "long")).toBe(false);
});

test("list by prefix, in key order, with the keys as given", async () => {
  await kv.set(["list", "b"], "B");
  await kv.set(["list", "a", "deep"], "AD");
  await kv.set(["list", "a"], "A");
  await kv.set(["listing"], "not under [list]");
  await kv.set(["lis", "t"], "nor this");
  expect(await all(["list"])).toEqual([[["list", "a"], "A"], [["list", "a", "deep"], "AD"], [["list", "b"], "B"]]);
  expect(await all(["list", "a"])).toEqual([[["list", "a"], "A"], [["list", "a", "deep"], "AD"]]);
  expect((await all()).length).toBeGreaterThanOrEqual(6);
});

test("keys too long for LMDB are kept under a digest and listed as given", async () => {
  const long = `https://example.com/${"x".repeat(3000)}`;
  await kv.set(["doc", long], { long: true });
  expect(await kv.get(["doc", long])).toEqual({ long: true });
  expect(await all(["doc"])).toEqual([[["doc", long], { long: true }]]);
  await kv.delete(["doc", long]);
  expect(await all(["doc"])).toEqual([]);
});

test("cas sets only over the expected value", async () => {
  expect(await kv.cas!(["cas"], undefined, { n: 1 })).toBe(true);
  expect(await kv.cas!(["cas"], undefined, { n: 2 })).toBe(false);
  expect(await kv.cas!(["cas"], { n: 2 }, { n: 3 })).toBe(false);
  expect(await kv.cas!(["cas"], { n: 1 }, { n: 3 })).toBe(true);
  expect(await kv.get(["cas"])).toEqual({ n: 3 });
});

test("another handle on the same environment (another thread, a restart) sees the entries", async () => {
  await kv.set(["shared"], "seen");
  const other = openStore(t.dir, { migrate: false });
  try {
    expect(await new LmdbKvStore(other).get(["shared"])).toBe("seen");
  } finally {
    await other.close();
  }
});
