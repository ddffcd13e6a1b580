// The contract every search engine keeps (src/search/engine.ts), run against each implementation by
// embedded.test.ts and meilisearch.test.ts. Engines only find candidates: nothing here is about who may see
// what (the domain filters after retrieval).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { AccountDocument, SearchEngine, StatusDocument } from "../../src/search/engine.ts";
import { idAtTime } from "../../src/lib/ids.ts";

export interface EngineFixture {
  engine: SearchEngine;
  close(): Promise<void>;
}

const T0 = Date.UTC(2026, 0, 1);
/** Ids in time order: id(1) < id(2) < … */
export const id = (n: number) => idAtTime(T0 + n * 1000);
const PAGE = { limit: 20, offset: 0 };

export function account(n: number, fields: Partial<AccountDocument> & { username: string }): AccountDocument {
  return { id: id(n), domain: null, displayName: "", note: "", followersCount: 0, lastStatusAt: null, discoverable: true, ...fields };
}

export function status(n: number, text: string, fields: Partial<StatusDocument> = {}): StatusDocument {
  return { id: id(n), accountId: id(900), text, visibility: "public", createdAt: T0 + n * 1000, ...fields };
}

export function searchContract(label: string, open: () => Promise<EngineFixture>): void {
  describe(`${label}: search engine contract`, () => {
    let fixture: EngineFixture;
    let engine: SearchEngine;

    beforeAll(async () => {
      fixture = await open();
      engine = fixture.engine;
      await engine.start();
    });
    afterAll(async () => {
      await fixture.close();
    });
    beforeEach(async () => {
      await engine.clear();
    });

    describe("accounts", () => {
      const alice = account(1, { username: "alice", displayName: "Alice Liddell", followersCount: 1 });
      const aliceRemote = account(2, { username: "alice", domain: "wonder.example", displayName: "The other Alice", followersCount: 500 });
      const alicia = account(3, { username: "alicia", displayName: "Alicia Keys", followersCount: 100, lastStatusAt: T0 });
      const alina = account(4, { username: "alina", displayName: "", followersCount: 100, lastStatusAt: T0 + 5000 });
      const bob = account(5, { username: "bob", displayName: "Bob in Wonderland", followersCount: 10 });
      const zoe = account(6, { username: "zoe", displayName: "Zoë Café", followersCount: 3 });
      const hidden = account(7, { username: "hermit", displayName: "Alice the hermit", followersCount: 10_000, discoverable: false });
      const everyone = [alice, aliceRemote, alicia, alina, bob, zoe, hidden];

      beforeEach(async () => {
        await engine.indexAccounts(everyone);
      });

      test("the exact acct comes first, whatever the followers", async () => {
        const found = await engine.searchAccounts("alice", PAGE);
        expect(found[0]).toBe(alice.id);
        expect(found).toContain(aliceRemote.id);
        expect((await engine.searchAccounts("@alice@wonder.example", PAGE))[0]).toBe(aliceRemote.id);
        expect((await engine.searchAccounts("ALICE", PAGE))[0]).toBe(alice.id);
      });

      test("a prefix finds usernames, ranked by followers, then by the most recent status", async () => {
        expect(await engine.searchAccounts("ali", PAGE)).toEqual([aliceRemote.id, alina.id, alicia.id, alice.id]);
      });

      test("display-name words are found", async () => {
        expect(await engine.searchAccounts("wonderland", PAGE)).toEqual([bob.id]);
        expect(await engine.searchAccounts("keys", PAGE)).toEqual([alicia.id]);
      });

      test("accents and case fold", async () => {
        expect(await engine.searchAccounts("zoe cafe", PAGE)).toEqual([zoe.id]);
        expect(await engine.searchAccounts("ZOË", PAGE)).toEqual([zoe.id]);
        expect(await engine.searchAccounts("café", PAGE)).toEqual([zoe.id]);
      });

      test("undiscoverable accounts are found by their exact acct only", async () => {
        expect(await engine.searchAccounts("hermit", PAGE)).toEqual([hidden.id]);
        expect(await engine.searchAccounts("@hermit", PAGE)).toEqual([hidden.id]);
        expect(await engine.searchAccounts("herm", PAGE)).toEqual([]);
        expect(await engine.searchAccounts("alice", PAGE)).not.toContain(hidden.id);
      });

      test("`among` keeps only those accounts", async () => {
        expect(await engine.searchAccounts("ali", { ...PAGE, among: new Set([alicia.id, alice.id, bob.id]) })).toEqual([alicia.id, alice.id]);
        expect(await engine.searchAccounts("alice", { ...PAGE, among: new Set([aliceRemote.id]) })).toEqual([aliceRemote.id]);
        expect(await engine.searchAccounts("ali", { ...PAGE, among: new Set() })).toEqual([]);
      });

      test("offset and limit page through the ranking", async () => {
        expect(await engine.searchAccounts("ali", { limit: 2, offset: 0 })).toEqual([aliceRemote.id, alina.id]);
        expect(await engine.searchAccounts("ali", { limit: 2, offset: 2 })).toEqual([alicia.id, alice.id]);
        expect(await engine.searchAccounts("alice", { limit: 1, offset: 0 })).toEqual([alice.id]);
      });

      test("a re-indexed account is found by what it is now, and a removed one not at all", async () => {
        await engine.indexAccounts([{ ...bob, displayName: "Robert", followersCount: 10 }]);
        expect(await engine.searchAccounts("wonderland", PAGE)).toEqual([]);
        expect(await engine.searchAccounts("robert", PAGE)).toEqual([bob.id]);
        await engine.indexAccounts([{ ...alicia, followersCount: 1000 }]);
        expect((await engine.searchAccounts("ali", PAGE))[0]).toBe(alicia.id);
        await engine.removeAccounts([alicia.id, bob.id]);
        expect(await engine.searchAccounts("robert", PAGE)).toEqual([]);
        expect(await engine.searchAccounts("alicia", PAGE)).toEqual([]);
        expect(await engine.searchAccounts("ali", PAGE)).toEqual([aliceRemote.id, alina.id, alice.id]);
      });

      test("an account that stops being discoverable keeps only its exact acct", async () => {
        await engine.indexAccounts([{ ...alicia, discoverable: false }]);
        expect(await engine.searchAccounts("ali", PAGE)).not.toContain(alicia.id);
        expect(await engine.searchAccounts("alicia", PAGE)).toEqual([alicia.id]);
      });

      test("a query without words finds nothing", async () => {
        expect(await engine.searchAccounts("", PAGE)).toEqual([]);
        expect(await engine.searchAccounts("@", PAGE)).toEqual([]);
      });
    });

    describe("statuses", () => {
      const author = id(901);
      const other = id(902);
      const docs = [
        status(1, "The quick brown fox jumps over the lazy dog", { accountId: author }),
        status(2, "A quick lunch: café au lait and croissants", { accountId: other }),
        status(3, "Foxes are QUICK and clever", { accountId: author }),
        status(4, "私は東京タワーに行きました", { accountId: other }),
        status(5, "Nothing to see here", { accountId: author }),
        status(6, "quick thinking saves the day", { accountId: other }),
        status(7, "quickly, the fox ran", { accountId: author, visibility: "private" }),
      ];

      beforeEach(async () => {
        await engine.indexStatuses(docs);
      });

      const ids = (...ns: number[]) => ns.map(id);

      test("every word must match, newest first", async () => {
        expect(await engine.searchStatuses("quick fox", PAGE)).toEqual(ids(3, 1));
        expect(await engine.searchStatuses("quick", PAGE)).toEqual(ids(7, 6, 3, 2, 1));
        expect(await engine.searchStatuses("lazy croissants", PAGE)).toEqual([]);
      });

      test("the last word is a prefix, the others are whole words", async () => {
        expect(await engine.searchStatuses("fox", PAGE)).toEqual(ids(7, 3, 1));
        expect(await engine.searchStatuses("the qui", PAGE)).toEqual(ids(7, 6, 1));
        expect(await engine.searchStatuses("qui fox", PAGE)).toEqual([]);
      });

      test("accents and case fold both ways", async () => {
        expect(await engine.searchStatuses("cafe", PAGE)).toEqual(ids(2));
        expect(await engine.searchStatuses("CAFÉ AU LAIT", PAGE)).toEqual(ids(2));
        expect(await engine.searchStatuses("Quick Foxes", PAGE)).toEqual(ids(3));
      });

      test("Japanese text is found by a word inside a sentence", async () => {
        expect(await engine.searchStatuses("東京", PAGE)).toEqual(ids(4));
        expect(await engine.searchStatuses("東京タワー", PAGE)).toEqual(ids(4));
        expect(await engine.searchStatuses("京都", PAGE)).toEqual([]);
      });

      test("max_id, min_id, account, offset and limit", async () => {
        expect(await engine.searchStatuses("quick", { ...PAGE, maxId: id(6) })).toEqual(ids(3, 2, 1));
        expect(await engine.searchStatuses("quick", { ...PAGE, minId: id(2) })).toEqual(ids(7, 6, 3));
        expect(await engine.searchStatuses("quick", { ...PAGE, maxId: id(7), minId: id(2) })).toEqual(ids(6, 3));
        expect(await engine.searchStatuses("quick", { ...PAGE, accountId: author })).toEqual(ids(7, 3, 1));
        expect(await engine.searchStatuses("quick fox", { ...PAGE, accountId: other })).toEqual([]);
        expect(await engine.searchStatuses("quick", { limit: 2, offset: 0 })).toEqual(ids(7, 6));
        expect(await engine.searchStatuses("quick", { limit: 2, offset: 2 })).toEqual(ids(3, 2));
        expect(await engine.searchStatuses("quick", { limit: 2, offset: 4 })).toEqual(ids(1));
      });

      test("a removed status is not found, a replaced one by its new words only", async () => {
        await engine.removeStatuses([id(3), id(6)]);
        expect(await engine.searchStatuses("quick", PAGE)).toEqual(ids(7, 2, 1));
        await engine.indexStatuses([status(1, "A slow green turtle", { accountId: author })]);
        expect(await engine.searchStatuses("fox", PAGE)).toEqual(ids(7));
        expect(await engine.searchStatuses("turtle", PAGE)).toEqual(ids(1));
        expect(await engine.searchStatuses("turtle", { ...PAGE, accountId: author })).toEqual(ids(1));
        await engine.removeStatuses([id(1), id(1), id(99)]);
        expect(await engine.searchStatuses("turtle", PAGE)).toEqual([]);
      });

      test("a query without words finds nothing", async () => {
        expect(await engine.searchStatuses("", PAGE)).toEqual([]);
        expect(await engine.searchStatuses("  !?  ", PAGE)).toEqual([]);
      });
    });

    describe("tags", () => {
      beforeEach(async () => {
        await engine.indexTags([
          { name: "cat", uses: 3 },
          { name: "cats", uses: 50 },
          { name: "caturday", uses: 20 },
          { name: "catalan", uses: 10 },
          { name: "dogs", uses: 100 },
        ]);
      });

      test("exact name first, then prefixes by uses", async () => {
        expect(await engine.searchTags("cat", PAGE)).toEqual(["cat", "cats", "caturday", "catalan"]);
        expect(await engine.searchTags("#CATS", PAGE)).toEqual(["cats"]);
        expect(await engine.searchTags("do", PAGE)).toEqual(["dogs"]);
        expect(await engine.searchTags("bird", PAGE)).toEqual([]);
      });

      test("uses are updated by indexing the tag again; offset and limit", async () => {
        await engine.indexTags([{ name: "caturday", uses: 60 }]);
        expect(await engine.searchTags("cat", PAGE)).toEqual(["cat", "caturday", "cats", "catalan"]);
        expect(await engine.searchTags("cat", { limit: 2, offset: 1 })).toEqual(["caturday", "cats"]);
      });
    });

    test("clear() empties every index", async () => {
      await engine.indexAccounts([account(1, { username: "alice" })]);
      await engine.indexStatuses([status(1, "hello world")]);
      await engine.indexTags([{ name: "hello", uses: 1 }]);
      await engine.clear();
      expect(await engine.searchAccounts("alice", PAGE)).toEqual([]);
      expect(await engine.searchStatuses("hello", PAGE)).toEqual([]);
      expect(await engine.searchTags("hello", PAGE)).toEqual([]);
      await engine.indexStatuses([status(2, "hello again")]);
      expect(await engine.searchStatuses("hello", PAGE)).toEqual([id(2)]);
    });
  });
}
