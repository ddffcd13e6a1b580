// The embedded engine (src/search/embedded.ts) on a fresh LMDB environment: the shared contract, then what
// only it has: its tokeniser and its bounds on the work one query does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedEngine, LIMITS } from "../../src/search/embedded.ts";
import { documentWords, fold, MAX_WORD_LENGTH, NAME_MIN_LENGTH, queryWords } from "../../src/search/tokenize.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { account, id, searchContract, status } from "./contract.ts";

function tempStore(): { store: Store; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "warren-search-"));
  const store = openStore(dir);
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

searchContract("embedded", async () => {
  const { store, close } = tempStore();
  return { engine: createEmbeddedEngine(store), close };
});

describe("tokeniser", () => {
  test("folds case, accents and compatibility forms", () => {
    expect(fold("Café CRÈME Ｗａｒｒｅｎ ﬁne")).toBe("cafe creme warren fine");
    expect(documentWords("Ærøskøbing naïve façade Ångström")).toEqual(["ærøskøbing", "naive", "facade", "angstrom"]);
    expect(documentWords("ΣΟΦΟΣ σοφος")).toEqual(["σοφοσ"]);
  });

  test("keeps the marks other scripts need", () => {
    expect(documentWords("ｶﾞｲﾄﾞ")).toEqual(["ガイ", "イド"]);
    expect(documentWords("नमस्ते दुनिया")).toEqual(["नमस्ते", "दुनिया"]);
    expect(documentWords("한국어")).toEqual(["한국", "국어"]);
  });

  test("splits on everything but letters and digits; drops one-letter and overlong words", () => {
    expect(documentWords("Hello, world! It's 2026: a new-ish year_end")).toEqual(["hello", "world", "it", "2026", "new", "ish", "year", "end"]);
    expect(documentWords(`x${"y".repeat(MAX_WORD_LENGTH)} ok`)).toEqual(["ok"]);
    expect(documentWords("a b c", NAME_MIN_LENGTH)).toEqual(["a", "b", "c"]);
  });

  test("CJK runs become overlapping bigrams, a lone character itself", () => {
    expect(documentWords("東京タワー")).toEqual(["東京", "京タ", "タワ", "ワー"]);
    expect(documentWords("私は東京に住んでいます")).toContain("東京");
    expect(documentWords("猫 cat 犬")).toEqual(["猫", "cat", "犬"]);
    expect(documentWords("東京2020年")).toEqual(["東京", "2020", "年"]);
  });

  test("mentions, hashtags and URLs are words, not markup", () => {
    expect(documentWords("@alice@social.example likes #Caturday")).toEqual(["alice", "social", "example", "likes", "caturday"]);
    expect(documentWords("see https://www.example.com/blog/Cats-and-dogs?utm_source=feed#top ok")).toEqual(["see", "example", "com", "blog", "cats", "and", "dogs", "ok"]);
  });

  test("a query's last word is its prefix; repeats and short words go", () => {
    expect(queryWords("quick brown fo")).toEqual({ whole: ["quick", "brown"], prefix: "fo" });
    expect(queryWords("fox fox")).toEqual({ whole: [], prefix: "fox" });
    expect(queryWords("hello w")).toEqual({ whole: [], prefix: "hello" });
    expect(queryWords("!!")).toEqual({ whole: [], prefix: null });
    expect(queryWords("東京タワー")).toEqual({ whole: ["東京", "京タ", "タワ"], prefix: "ワー" });
  });
});

describe("bounded work", () => {
  let store: Store;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = tempStore());
  });
  afterAll(async () => {
    await close();
  });

  test("the limits are what docs/search.md says", () => {
    expect(LIMITS).toMatchObject({ statusRows: 20_000, prefixWords: 64, prefixScan: 512, accountRows: 5_000, tagRows: 1_000, depth: 1_000 });
  });

  test("a status query reads at most `statusRows` rows per part of the query", async () => {
    // "alpha" and "beta" each in 150 statuses, together only in the oldest one: 300 rows to read, 200 allowed.
    const docs = [status(1, "alpha beta")];
    for (let n = 2; n <= 301; n++) docs.push(status(n, n % 2 ? "alpha filler" : "beta filler"));
    await createEmbeddedEngine(store).indexStatuses(docs);
    expect(await createEmbeddedEngine(store).searchStatuses("alpha beta", { limit: 20, offset: 0 })).toEqual([id(1)]);
    const bounded = createEmbeddedEngine(store, { statusRows: 100 });
    expect(await bounded.searchStatuses("alpha beta", { limit: 20, offset: 0 })).toEqual([]);
    // Within the bound, the newest ones are found.
    expect((await bounded.searchStatuses("alpha fil", { limit: 20, offset: 0 })).length).toBe(20);
    await createEmbeddedEngine(store).clear();
  });

  test("the last word stands for its most used words only", async () => {
    const docs = [status(1, "prefab"), status(2, "prefix"), status(3, "prefix"), status(4, "preset"), status(5, "preset"), status(6, "preset")];
    await createEmbeddedEngine(store).indexStatuses(docs);
    const bounded = createEmbeddedEngine(store, { prefixWords: 2 });
    expect(await bounded.searchStatuses("pre", { limit: 20, offset: 0 })).toEqual([id(6), id(5), id(4), id(3), id(2)]);
    expect(await createEmbeddedEngine(store).searchStatuses("pre", { limit: 20, offset: 0 })).toHaveLength(6);
    await createEmbeddedEngine(store).clear();
  });

  test("accounts: at most `accountRows` candidates; pages past `depth` are empty", async () => {
    const accounts = Array.from({ length: 50 }, (_, n) => account(n + 1, { username: `user${n}`, followersCount: n }));
    await createEmbeddedEngine(store).indexAccounts(accounts);
    const engine = createEmbeddedEngine(store, { accountRows: 10, depth: 30 });
    expect(await engine.searchAccounts("user", { limit: 40, offset: 0 })).toHaveLength(10);
    expect((await createEmbeddedEngine(store).searchAccounts("user", { limit: 40, offset: 0 }))[0]).toBe(id(50));
    expect(await createEmbeddedEngine(store, { depth: 30 }).searchAccounts("user", { limit: 40, offset: 0 })).toHaveLength(30);
    expect(await createEmbeddedEngine(store, { depth: 30 }).searchAccounts("user", { limit: 10, offset: 30 })).toEqual([]);
    await createEmbeddedEngine(store).clear();
  });

  test("a status is indexed under at most `statusWords` words", async () => {
    const text = Array.from({ length: 30 }, (_, n) => `word${n}`).join(" ");
    await createEmbeddedEngine(store, { statusWords: 10 }).indexStatuses([status(1, text)]);
    const engine = createEmbeddedEngine(store);
    expect(await engine.searchStatuses("word9", { limit: 20, offset: 0 })).toEqual([id(1)]);
    expect(await engine.searchStatuses("word10", { limit: 20, offset: 0 })).toEqual([]);
    await engine.clear();
  });
});
