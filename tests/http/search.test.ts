// GET /api/v2/search and GET /api/v1/accounts/search through HTTP, with the embedded engine fed by its event
// subscribers on worker threads: parameters (q required, negative offset, limits, types), accounts (exact
// acct first, prefixes, display names, following=true), hashtags with history, statuses by full text, and
// privacy on every type (private, direct, blocks both ways, deleted, suspended, unapproved accounts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { block, call, follow, get, newUser, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User; // searches
let bob: User; // posts
let carol: User; // blocks alice
let dave: User; // blocked by alice
let eve: User; // suspended
let frank: User; // display name only
let posts: Record<string, any>;

/** `null`: anonymous. */
const search = (params: Record<string, string>, token: string | null = alice.token) =>
  get(t, `/api/v2/search?${new URLSearchParams(params)}`, token ?? undefined);
const ids = (list: { id: string }[]) => list.map((x) => x.id);
/** Keys inside lists these users leave empty (profile fields, highlighted roles): accounts-reads tests them. */
const ofEmptyList = (key: string) => /(^|\.)(fields|roles)\./.test(key);

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  alice = await newUser(t, "alice");
  bob = await newUser(t, "bobsearch");
  carol = await newUser(t, "carolsearch");
  dave = await newUser(t, "davesearch");
  eve = await newUser(t, "evesearch");
  frank = await newUser(t, "fr");
  await call(t, "PATCH", "/api/v1/accounts/update_credentials", frank.token, { display_name: "Ümlaut Frankfurter" });
  await follow(t, alice, bob);
  await block(t, carol, alice);
  await block(t, alice, dave);
  posts = {
    public: await postStatus(t, bob, "The quick brown fox jumps over the lazy dog #Foxes"),
    unlisted: await postStatus(t, bob, { status: "An unlisted fox appears #foxes", visibility: "unlisted" }),
    private: await postStatus(t, bob, { status: "A private fox for followers", visibility: "private" }),
    direct: await postStatus(t, bob, { status: "A direct fox for carol only", visibility: "direct" }),
    deleted: await postStatus(t, bob, "A deleted fox"),
    carol: await postStatus(t, carol, "A fox by someone who blocks alice"),
    dave: await postStatus(t, dave, "A fox by someone alice blocks"),
    eve: await postStatus(t, eve, "A fox by a suspended account"),
    accents: await postStatus(t, bob, "Un café crème à Genève"),
    cjk: await postStatus(t, bob, "今日は東京で会議があります"),
  };
  posts.directToAlice = await postStatus(t, bob, { status: `@${alice.username} a direct fox for alice`, visibility: "direct" });
  await call(t, "DELETE", `/api/v1/statuses/${posts.deleted.id}`, bob.token);
  await suspendAccount(t, eve.id);
  await t.deps.jobs.drain();
}, 120_000);
afterAll(() => t.close());

describe("parameters", () => {
  test("q is required: 400", async () => {
    expect((await get(t, "/api/v2/search", alice.token)).status).toBe(400);
    expect((await search({ q: "  " })).status).toBe(400);
    expect((await get(t, "/api/v1/accounts/search", alice.token)).status).toBe(400);
  });

  test("a negative offset counts as 0, without an error (the spec)", async () => {
    const first = await search({ q: "fox", type: "statuses", offset: "-5" });
    expect(first.status).toBe(200);
    expect(ids(first.body.statuses)).toEqual(ids((await search({ q: "fox", type: "statuses" })).body.statuses));
    expect((await search({ q: "fox", offset: "-1" }, null)).status).toBe(200);
  });

  test("offset pages one type; limit is honoured up to twice the default", async () => {
    const all = ids((await search({ q: "fox", type: "statuses" })).body.statuses);
    expect(all.length).toBeGreaterThan(3);
    expect(ids((await search({ q: "fox", type: "statuses", limit: "2" })).body.statuses)).toEqual(all.slice(0, 2));
    expect(ids((await search({ q: "fox", type: "statuses", limit: "2", offset: "2" })).body.statuses)).toEqual(all.slice(2, 4));
    expect((await search({ q: "fox", type: "statuses", limit: "1000" })).status).toBe(200);
  });

  test("an unknown type finds nothing; every answer has the four keys Mastodon 4.6 sends", async () => {
    const res = await search({ q: "fox", type: "nonsense" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accounts: [], statuses: [], hashtags: [], collections: [] });
  });

  test("anonymous callers: no statuses, and paging or resolving is 401", async () => {
    const res = await search({ q: "fox" }, null);
    expect(res.status).toBe(200);
    expect(res.body.statuses).toEqual([]);
    expect((await search({ q: "fox", type: "accounts", offset: "1" }, null)).status).toBe(401);
    expect((await search({ q: "fox", resolve: "true" }, null)).status).toBe(401);
  });
});

describe("accounts", () => {
  test("exact acct first, then prefixes; @user and @user@this-domain forms", async () => {
    const exact = await search({ q: bob.username, type: "accounts" });
    expect(exact.body.accounts[0].id).toBe(bob.id);
    expect(missingKeys(exact.body, referenceKeys("GET /api/v2/search").filter((k) => k.startsWith("accounts") && !ofEmptyList(k)))).toEqual([]);
    for (const q of [`@${bob.username}`, `${bob.username}@${t.deps.config.domain}`, `@${bob.username}@${t.deps.config.domain}`]) {
      expect((await search({ q, type: "accounts" })).body.accounts[0].id).toBe(bob.id);
    }
    const prefix = await search({ q: "bobs", type: "accounts" });
    expect(ids(prefix.body.accounts)).toContain(bob.id);
  });

  test("display-name words, case and accents folded", async () => {
    for (const q of ["frankfurter", "umlaut", "ÜMLAUT", "Frank"]) {
      expect(ids((await search({ q, type: "accounts" })).body.accounts)).toContain(frank.id);
    }
  });

  test("never accounts that block the caller, suspended or unapproved ones; blocked ones stay findable (to unblock)", async () => {
    const pending = await createUser(t, "pendingsearch", { approved: false });
    await t.deps.jobs.drain();
    expect(ids((await search({ q: "davesearch", type: "accounts" })).body.accounts)).toEqual([dave.id]);
    for (const [q, id] of [
      ["carolsearch", carol.id],
      ["evesearch", eve.id],
      ["pendingsearch", pending.id],
    ] as const) {
      expect(ids((await search({ q, type: "accounts" })).body.accounts)).not.toContain(id);
      expect(ids((await get(t, `/api/v1/accounts/search?q=${q}`, alice.token)).body)).not.toContain(id);
    }
    // Others still find the accounts that only block alice.
    expect(ids((await search({ q: "carolsearch", type: "accounts" }, bob.token)).body.accounts)).toContain(carol.id);
  });

  test("following=true: only accounts the caller follows", async () => {
    expect(ids((await search({ q: "bobsearch", type: "accounts", following: "true" })).body.accounts)).toEqual([bob.id]);
    expect(ids((await search({ q: "fr", type: "accounts", following: "true" })).body.accounts)).toEqual([]);
    expect(ids((await search({ q: "fr", type: "accounts" })).body.accounts)).toContain(frank.id);
  });

  test("GET /api/v1/accounts/search answers Account[]; named routes are not taken for an id", async () => {
    const res = await get(t, `/api/v1/accounts/search?q=${bob.username}`, alice.token);
    expect(res.status).toBe(200);
    expect(res.body[0].id).toBe(bob.id);
    expect(missingKeys(res.body, referenceKeys("GET /api/v1/accounts/search").filter((k) => !ofEmptyList(k)))).toEqual([]);
    expect((await get(t, `/api/v1/accounts/lookup?acct=${bob.username}`)).body.id).toBe(bob.id);
    const familiar = await get(t, `/api/v1/accounts/familiar_followers?id[]=${bob.id}`, alice.token);
    expect(familiar.status).toBe(200);
    expect(familiar.body).toEqual([{ id: bob.id, accounts: [] }]);
  });
});

describe("hashtags", () => {
  test("by prefix, with a week of history counting today's uses", async () => {
    for (const q of ["fox", "#fox", "FOXES"]) {
      const res = await search({ q, type: "hashtags" });
      expect(res.body.hashtags.map((h: { name: string }) => h.name)).toContain("foxes");
    }
    const [tag] = (await search({ q: "foxes", type: "hashtags" })).body.hashtags;
    expect(missingKeys(tag, referenceKeys("GET /api/v1/tags/heeho"))).toEqual([]);
    expect(tag.history).toHaveLength(7);
    expect(tag.history[0]).toEqual({ day: String(Math.floor(Date.now() / 86_400_000) * 86_400), uses: "2", accounts: "1" });
  });
});

describe("statuses", () => {
  const found = async (q: string, token = alice.token, extra: Record<string, string> = {}) =>
    ids((await search({ q, type: "statuses", ...extra }, token)).body.statuses);

  test("every word must match, the last as a prefix; newest first", async () => {
    expect(await found("quick brown")).toEqual([posts.public.id]);
    expect(await found("lazy do")).toEqual([posts.public.id]);
    expect(await found("quick giraffe")).toEqual([]);
    const foxes = await found("fox");
    expect(foxes).toEqual([...foxes].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1)));
  });

  test("accents, case and CJK", async () => {
    expect(await found("CAFE creme")).toEqual([posts.accents.id]);
    expect(await found("genève")).toEqual([posts.accents.id]);
    expect(await found("東京")).toEqual([posts.cjk.id]);
  });

  test("only what the caller may see", async () => {
    const foxes = await found("fox");
    // Followed author: public, unlisted, private; direct only when mentioned.
    expect(foxes).toContain(posts.public.id);
    expect(foxes).toContain(posts.unlisted.id);
    expect(foxes).toContain(posts.private.id);
    expect(foxes).toContain(posts.directToAlice.id);
    expect(foxes).not.toContain(posts.direct.id);
    expect(foxes).not.toContain(posts.deleted.id);
    expect(foxes).not.toContain(posts.carol.id);
    expect(foxes).not.toContain(posts.dave.id);
    expect(foxes).not.toContain(posts.eve.id);
    // A non-follower does not find the private one, nor the direct one addressed to alice.
    const stranger = await newUser(t, "stranger");
    const theirs = await found("fox", stranger.token);
    expect(theirs).toContain(posts.public.id);
    expect(theirs).not.toContain(posts.private.id);
    expect(theirs).not.toContain(posts.directToAlice.id);
    expect(theirs).toContain(posts.carol.id);
  });

  test("account_id, max_id and min_id", async () => {
    expect(await found("fox", alice.token, { account_id: carol.id })).toEqual([]);
    const bobs = await found("fox", alice.token, { account_id: bob.id });
    expect(bobs.length).toBeGreaterThan(2);
    expect(await found("fox", alice.token, { account_id: bob.id, max_id: bobs[0]! })).toEqual(bobs.slice(1));
    expect(await found("fox", alice.token, { account_id: bob.id, min_id: bobs[1]! })).toEqual([bobs[0]!]);
  });

  test("a URL of this server finds the status or account it names", async () => {
    const res = await search({ q: posts.public.url });
    expect(ids(res.body.statuses)).toEqual([posts.public.id]);
    const profile = await search({ q: `${t.deps.config.url}/@${bob.username}` });
    expect(ids(profile.body.accounts)).toEqual([bob.id]);
    expect(ids((await search({ q: posts.private.url }, (await newUser(t, "outsider")).token)).body.statuses)).toEqual([]);
  });
});
