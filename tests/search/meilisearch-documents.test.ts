// The documents Warren writes to Meilisearch and the filters it sends (src/search/meilisearch-documents.ts),
// without a server: the contract against a real one is tests/search/meilisearch.test.ts.
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { accountDocument, idFilter, idParts, quoted, statusDocument, tagDocument } from "../../src/search/meilisearch-documents.ts";

test("an 18-digit id is kept as two exact JSON numbers: its millisecond and its low 16 bits", () => {
  const id = "115234567890123457";
  const { ms, low } = idParts(id);
  expect((BigInt(ms) << 16n) + BigInt(low)).toBe(BigInt(id));
  expect(Number.isSafeInteger(ms) && low < 65536).toBe(true);
  expect(statusDocument({ id, accountId: "1", text: "hi", visibility: "public", createdAt: 5 })).toEqual({
    id, accountId: "1", text: "hi", visibility: "public", createdAt: 5, idMs: ms, idLow: low,
  });
});

test("max_id / min_id filters compare the millisecond first, then the low bits", () => {
  const { ms, low } = idParts("115234567890123457");
  expect(idFilter("115234567890123457", true)).toBe(`(idMs < ${ms} OR (idMs = ${ms} AND idLow < ${low}))`);
  expect(idFilter("115234567890123457", false)).toBe(`(idMs > ${ms} OR (idMs = ${ms} AND idLow > ${low}))`);
});

test("a string in a filter cannot close its quotes: quotes and backslashes are escaped", () => {
  expect(quoted('a" OR discoverable = false OR acct = "b')).toBe('"a\\" OR discoverable = false OR acct = \\"b"');
  expect(quoted("back\\")).toBe('"back\\\\"');
});

test("an account's acct is lower case, user@domain for a remote one; a missing last status is 0", () => {
  const base = { id: "9", username: "Alice", displayName: "A", note: "", followersCount: 3, lastStatusAt: null, discoverable: true };
  expect(accountDocument({ ...base, domain: "Example.COM" })).toMatchObject({ acct: "alice@example.com", domain: "Example.COM", lastStatusAt: 0 });
  expect(accountDocument({ ...base, domain: null })).toMatchObject({ acct: "alice", domain: "" });
});

test("a tag's document id is the SHA-256 of its name (names hold letters ids may not)", () => {
  const doc = tagDocument({ name: "café", uses: 2 });
  expect(doc).toEqual({ id: createHash("sha256").update("café").digest("hex"), name: "café", uses: 2 });
  expect(doc.id).toMatch(/^[0-9a-f]{64}$/);
});
