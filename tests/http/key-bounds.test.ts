// Lookups keyed by text a client chose (hashtags, usernames, domains, client ids, URLs) never reach LMDB with a
// key longer than it stores (1978 bytes, src/store/key-bounds.ts): they answer as if nothing matched, and writes
// refuse with 422. `GET /api/v2/search?q=` with 2,000 letters was a 500 ("Key of size 2010 was too large"),
// with or without a token, and so was `POST /api/v1/domain_blocks` with a 2,000-letter domain. Multi-byte text
// counts in bytes: 700 CJK characters are 2,100 bytes. Job workers on, as users run the server.
import { describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import type { TestApp } from "../helpers/app.ts";

const { t, alice } = seededWorld({ env: { WARREN_JOB_WORKERS: "2" }, users: ["alice"] });

/** Texts just past the key limit and well past it, ASCII and multi-byte (percent-encoded in URLs). */
const LONG = ["a".repeat(1_979), "a".repeat(2_000), "é".repeat(1_000), "日".repeat(700), "😀".repeat(500), "a".repeat(6_000)];
const q = encodeURIComponent;

async function answer(path: string, init: Parameters<TestApp["request"]>[1] = {}) {
  const res = await t.request(path, init);
  const text = await res.text();
  return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

const EMPTY_SEARCH = { accounts: [], statuses: [], hashtags: [], collections: [] };

describe.each([["anonymous", () => undefined], ["with a token", () => alice.token]])("%s", (_, token) => {
  test("search for a long word, hashtag, account or URL finds nothing", async () => {
    for (const text of LONG) {
      for (const query of [text, `#${text}`, `@${text}`, `@nobody@${text}`, `https://${text}.example/`]) {
        for (const type of ["", "&type=hashtags", "&type=accounts", "&type=statuses"]) {
          expect(await answer(`/api/v2/search?q=${q(query)}${type}`, { token: token() })).toEqual({ status: 200, body: EMPTY_SEARCH });
        }
      }
    }
  });

  test("a long hashtag's timeline is empty and the tag unknown", async () => {
    for (const text of LONG) {
      expect(await answer(`/api/v1/timelines/tag/${q(text)}`, { token: token() })).toEqual({ status: 200, body: [] });
      expect(await answer(`/api/v1/timelines/tag/a?any[]=${q(text)}&local=true`, { token: token() })).toEqual({ status: 200, body: [] });
      expect((await answer(`/api/v1/tags/${q(text)}`, { token: token() })).status).toBe(404);
    }
  });

  test("a long acct, username or e-mail names no account", async () => {
    for (const text of LONG) {
      expect((await answer(`/api/v1/accounts/lookup?acct=${q(text)}`, { token: token() })).status).toBe(404);
      expect((await answer(`/api/v1/accounts/lookup?acct=a@${q(text)}`, { token: token() })).status).toBe(404);
      expect((await answer(`/.well-known/webfinger?resource=${q(`acct:${text}@localhost`)}`)).status).toBe(404);
      expect((await answer(`/users/${q(text)}`, { headers: { accept: "application/activity+json" } })).status).toBe(404);
    }
  });
});

test("a long client id is an unknown client", async () => {
  for (const text of LONG) {
    const res = await answer("/oauth/token", { method: "POST", form: { grant_type: "client_credentials", client_id: text, client_secret: "x" } });
    expect(res).toEqual({ status: 401, body: expect.objectContaining({ error: "invalid_client" }) });
  }
});

test("blocking or following something too long to store is 422; unblocking it is as for an invalid domain", async () => {
  for (const text of LONG) {
    const invalidDomain = { status: 422, body: { error: "Validation failed: Domain is not a valid domain name" } };
    expect(await answer("/api/v1/domain_blocks", { method: "POST", token: alice.token, json: { domain: text } })).toEqual(invalidDomain);
    expect(await answer("/api/v1/domain_blocks", { method: "POST", token: alice.token, json: { domain: `${text}.example` } })).toEqual(invalidDomain);
    expect(await answer("/api/v1/domain_blocks", { method: "DELETE", token: alice.token, json: { domain: text } })).toEqual(invalidDomain);
    expect((await answer(`/api/v1/tags/${q(text)}/follow`, { method: "POST", token: alice.token })).status).toBe(404);
    expect((await answer("/api/v1/featured_tags", { method: "POST", token: alice.token, json: { name: text } })).status).toBe(422);
  }
  expect(await answer("/api/v1/domain_blocks", { token: alice.token })).toEqual({ status: 200, body: [] });
});
