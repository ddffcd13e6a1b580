// Which engine an instance uses (src/search/index.ts) and the configuration that chooses it.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import type { SearchEngine } from "../../src/search/engine.ts";
import { searchEngineFor, startingOnce } from "../../src/search/index.ts";
import { openStore } from "../../src/store/db.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-search-choice-"));
const store = openStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("WARREN_MEILISEARCH_URL and _KEY are parsed and checked", () => {
  expect(loadConfig({}).meilisearch).toBeNull();
  expect(loadConfig({ WARREN_MEILISEARCH_URL: "http://127.0.0.1:7700/" }).meilisearch).toEqual({ url: "http://127.0.0.1:7700", key: null });
  expect(loadConfig({ WARREN_MEILISEARCH_URL: "https://search.example/meili", WARREN_MEILISEARCH_KEY: "k" }).meilisearch).toEqual({ url: "https://search.example/meili", key: "k" });
  expect(() => loadConfig({ WARREN_MEILISEARCH_URL: "search.example" })).toThrow("WARREN_MEILISEARCH_URL");
  expect(() => loadConfig({ WARREN_MEILISEARCH_URL: "ftp://search.example" })).toThrow("WARREN_MEILISEARCH_URL");
  expect(() => loadConfig({ WARREN_MEILISEARCH_KEY: "k" })).toThrow("WARREN_MEILISEARCH_URL");
});

test("embedded unless a Meilisearch URL is set; one engine per store", () => {
  const engine = searchEngineFor(store, loadConfig({}));
  expect(engine.name).toBe("embedded");
  expect(searchEngineFor(store, loadConfig({}))).toBe(engine);
  const other = openStore(join(dir, "other"));
  expect(searchEngineFor(other, loadConfig({ WARREN_MEILISEARCH_URL: "http://127.0.0.1:1" })).name).toBe("meilisearch");
  return other.close();
});

test("start() runs once, before the first call; a failed start is tried again", async () => {
  let starts = 0;
  let fail = true;
  const calls: string[] = [];
  const fake = {
    name: "embedded",
    start: async () => {
      starts++;
      calls.push("start");
      if (fail) throw new Error("not up yet");
    },
    searchTags: async () => {
      calls.push("search");
      return ["x"];
    },
  } as unknown as SearchEngine;
  const engine = startingOnce(fake);
  await expect(engine.searchTags("x", { limit: 1, offset: 0 })).rejects.toThrow("not up yet");
  fail = false;
  expect(await engine.searchTags("x", { limit: 1, offset: 0 })).toEqual(["x"]);
  expect(await engine.searchTags("x", { limit: 1, offset: 0 })).toEqual(["x"]);
  await engine.start();
  expect(starts).toBe(2);
  expect(calls).toEqual(["start", "start", "search", "search"]);
});
