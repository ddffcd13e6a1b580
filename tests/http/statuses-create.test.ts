// POST /api/v1/statuses: every rule of posting, and bad input.
import { describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { call, follow, get, newUser, post, postStatus, STATUS_KEYS, VIEWER_KEYS } from "./statuses-helpers.ts";

const { t, alice, bob } = seededWorld({ users: ["alice", "bob"] });

describe("the status entity", () => {
  test("carries every key of Mastodon's status, the application and the viewer flags", async () => {
    const status = await postStatus(t, alice, { status: "hello world", visibility: "public", spoiler_text: "" });
    for (const key of [...STATUS_KEYS, ...VIEWER_KEYS, "pinned"]) expect(status).toHaveProperty(key);
    expect(status.application).toEqual({ name: "test client", website: "https://client.example" });
    expect(status.visibility).toBe("public");
    expect(status.sensitive).toBe(false);
    expect(status.spoiler_text).toBe("");
    expect(status.content).toBe("<p>hello world</p>");
    expect(status.account.id).toBe(alice.id);
    expect(status.card).toBeNull();
    expect(status.quote).toBeNull();
    expect(status.quote_approval).toEqual({ automatic: ["public"], manual: [], current_user: "automatic" });
    expect(status.id).toMatch(/^[1-9]\d*$/);
    expect(status.url).toBe(`${t.deps.config.url}/@${alice.username}/${status.id}`);
    expect(status.uri).toBe(`${t.deps.config.url}/users/${alice.username}/statuses/${status.id}`);
    expect(new Date(status.created_at).toISOString()).toBe(status.created_at);
  });

  test("anonymous readers get no viewer flags but still the application", async () => {
    const status = await postStatus(t, alice, "for everyone");
    const res = await get(t, `/api/v1/statuses/${status.id}`);
    expect(res.status).toBe(200);
    for (const key of STATUS_KEYS) expect(res.body).toHaveProperty(key);
    for (const key of [...VIEWER_KEYS, "pinned"]) expect(res.body).not.toHaveProperty(key);
    expect(res.body.application.name).toBe("test client");
  });

  test("the application is the one whose token posted", async () => {
    const res = await t.request("/api/v1/apps", {
      method: "POST",
      json: { client_name: "Other App", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" },
    });
    const app = (await res.json()) as any;
    const tokenRes = await t.request("/oauth/token", {
      method: "POST",
      form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: alice.email, password: alice.password, scope: "read write" },
    });
    const token = ((await tokenRes.json()) as any).access_token;
    const posted = await post(t, "/api/v1/statuses", token, { status: "from another app" });
    expect(posted.status).toBe(200);
    expect(posted.body.application).toEqual({ name: "Other App", website: null });
  });
});

describe("posting rules", () => {
  test("a non-blank spoiler_text marks the status sensitive", async () => {
    const status = await postStatus(t, alice, { status: "spoilers ahead", spoiler_text: "film plot" });
    expect(status.spoiler_text).toBe("film plot");
    expect(status.sensitive).toBe(true);
    const blank = await postStatus(t, alice, { status: "no warning", spoiler_text: "   " });
    expect(blank.spoiler_text).toBe("");
    expect(blank.sensitive).toBe(false);
    const explicit = await postStatus(t, alice, { status: "sensitive without warning", sensitive: true });
    expect(explicit.sensitive).toBe(true);
    expect(explicit.spoiler_text).toBe("");
  });

  test("a content warning alone becomes the text, still sensitive", async () => {
    const status = await postStatus(t, alice, { status: "", spoiler_text: "only a warning" });
    expect(status.content).toBe("<p>only a warning</p>");
    expect(status.spoiler_text).toBe("");
    expect(status.sensitive).toBe(true);
  });

  test("every visibility is accepted and returned", async () => {
    for (const visibility of ["public", "unlisted", "private", "direct"]) {
      expect((await postStatus(t, alice, { status: `a ${visibility} one`, visibility })).visibility).toBe(visibility);
    }
  });

  test("a reply without visibility takes its parent's; an explicit one wins", async () => {
    await follow(t, bob, alice);
    const parent = await postStatus(t, alice, { status: "followers only", visibility: "private" });
    const reply = await postStatus(t, bob, { status: "a reply", in_reply_to_id: parent.id });
    expect(reply.visibility).toBe("private");
    expect(reply.in_reply_to_id).toBe(parent.id);
    expect(reply.in_reply_to_account_id).toBe(alice.id);
    const unlistedParent = await postStatus(t, alice, { status: "quiet", visibility: "unlisted" });
    expect((await postStatus(t, bob, { status: "re", in_reply_to_id: unlistedParent.id })).visibility).toBe("unlisted");
    expect((await postStatus(t, bob, { status: "re", in_reply_to_id: unlistedParent.id, visibility: "public" })).visibility).toBe("public");
    const after = await get(t, `/api/v1/statuses/${unlistedParent.id}`);
    expect(after.body.replies_count).toBe(2);
  });

  test("form-encoded posts work like JSON ones", async () => {
    const res = await t.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      form: { status: "from a form", visibility: "unlisted", sensitive: "true", spoiler_text: "cw" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect([body.visibility, body.sensitive, body.spoiler_text]).toEqual(["unlisted", true, "cw"]);
  });

  test("language: a listed code is kept; anything else falls back to the user's language, then the server's", async () => {
    expect((await postStatus(t, alice, { status: "bonjour", language: "fr" })).language).toBe("fr");
    expect((await postStatus(t, alice, { status: "hallo", language: "DE" })).language).toBe("de");
    for (const language of ["not a language", "zz", "xyz", ""]) {
      expect((await postStatus(t, alice, { status: "hmm", language })).language).toBe("en");
    }
    expect((await postStatus(t, alice, "no language given")).language).toBe("en");
    const dora = await newUser(t, "dora");
    const updated = await call(t, "PATCH", "/api/v1/accounts/update_credentials", dora.token, { source: { language: "de" } });
    expect(updated.status).toBe(200);
    expect((await postStatus(t, dora, "ohne Sprache")).language).toBe("de");
    expect((await postStatus(t, dora, { status: "bogus", language: "zz" })).language).toBe("de");
    expect((await postStatus(t, dora, { status: "merci", language: "fr" })).language).toBe("fr");
  });

  test("the account's statuses_count and last_status_at follow", async () => {
    const carol = await newUser(t, "carol");
    await postStatus(t, carol, "one");
    await postStatus(t, carol, "two");
    await postStatus(t, carol, { status: "a direct one is not counted", visibility: "direct" });
    const account = (await get(t, `/api/v1/accounts/${carol.id}`)).body;
    expect(account.statuses_count).toBe(2);
    expect(account.last_status_at).toBe(new Date().toISOString().slice(0, 10));
  });
});

describe("formatting", () => {
  test("paragraphs and line breaks", async () => {
    const status = await postStatus(t, alice, "first line\nsecond line\n\nnew paragraph");
    expect(status.content).toBe("<p>first line<br />second line</p><p>new paragraph</p>");
  });

  test("HTML in the text is escaped", async () => {
    const status = await postStatus(t, alice, `<script>alert("x")</script> & more`);
    expect(status.content).toBe("<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more</p>");
  });

  test("links are linkified and shortened, trailing punctuation left out", async () => {
    const status = await postStatus(t, alice, "see https://www.example.invalid/a/rather/long/path/to/something?x=1, ok");
    expect(status.content).toBe(
      '<p>see <a href="https://www.example.invalid/a/rather/long/path/to/something?x=1" target="_blank" rel="nofollow noopener" translate="no">' +
        '<span class="invisible">https://www.</span><span class="ellipsis">example.invalid/a/rather/long/</span>' +
        '<span class="invisible">path/to/something?x=1</span></a>, ok</p>',
    );
  });

  test("mentions of known accounts are linked and listed; unknown ones stay text", async () => {
    const status = await postStatus(t, alice, `hi @${bob.username} and @nobody_here and @${bob.username}@localhost:3000`);
    expect(status.mentions).toEqual([{ id: bob.id, username: bob.username, acct: bob.username, url: `${t.deps.config.url}/@${bob.username}` }]);
    expect(status.content).toContain(
      `<span class="h-card" translate="no"><a href="${t.deps.config.url}/@${bob.username}" class="u-url mention">@<span>${bob.username}</span></a></span>`,
    );
    expect(status.content).toContain("@nobody_here");
    const local = await postStatus(t, alice, `hi @${bob.username.toUpperCase()}@localhost`);
    expect(local.mentions).toEqual([]);
  });

  test("a mention notifies the mentioned account once, never the author", async () => {
    const dora = await newUser(t, "dora");
    const status = await postStatus(t, alice, `@${dora.username} hello @${dora.username} and me @${alice.username}`);
    const notes = notificationsBetween(t.deps.store, normaliseId(dora.id)!, normaliseId(alice.id)!);
    expect(notes.map((n) => [n.type, n.statusId])).toEqual([["mention", normaliseId(status.id)]]);
    expect(notificationsBetween(t.deps.store, normaliseId(alice.id)!, normaliseId(alice.id)!)).toEqual([]);
  });

  test("hashtags are linked and listed once, lower-cased", async () => {
    const status = await postStatus(t, alice, "#Warren is #fun, #warren again, not#this and #123");
    expect(status.tags).toEqual([
      { name: "warren", url: `${t.deps.config.url}/tags/warren` },
      { name: "fun", url: `${t.deps.config.url}/tags/fun` },
    ]);
    expect(status.content).toContain(`<a href="${t.deps.config.url}/tags/warren" class="mention hashtag" rel="tag">#<span>Warren</span></a>`);
    expect(status.content).toContain("not#this");
  });
  test("unicode hashtags, quotes and ampersands in text and links, CRLF line ends", async () => {
    const status = await postStatus(t, alice, "#Café & #日本語 say \"hi\" it's https://example.invalid/?a=1&b=2\r\nnext");
    expect(status.tags.map((tag: any) => tag.name)).toEqual(["café", "日本語"]);
    expect(status.tags[0].url).toBe(`${t.deps.config.url}/tags/caf%C3%A9`);
    expect(status.content).toBe(
      `<p><a href="${t.deps.config.url}/tags/caf%C3%A9" class="mention hashtag" rel="tag">#<span>Café</span></a> &amp; ` +
        `<a href="${t.deps.config.url}/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E" class="mention hashtag" rel="tag">#<span>日本語</span></a> ` +
        "say &quot;hi&quot; it&#39;s " +
        '<a href="https://example.invalid/?a=1&amp;b=2" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span>' +
        '<span class="">example.invalid/?a=1&amp;b=2</span><span class="invisible"></span></a><br />next</p>',
    );
  });

  test("a mention of an account this server does not know stays text", async () => {
    const status = await postStatus(t, alice, "cc @someone@elsewhere.example and @ghost");
    expect(status.mentions).toEqual([]);
    expect(status.content).toBe("<p>cc @someone@elsewhere.example and @ghost</p>");
  });
});

describe("the 500-character limit", () => {
  test("500 characters pass, 501 fail", async () => {
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "a".repeat(500) })).status).toBe(200);
    const res = await post(t, "/api/v1/statuses", alice.token, { status: "a".repeat(501) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed: Text character limit of 500 exceeded" });
  });

  test("a URL counts 23 characters however long it is", async () => {
    const url = `https://example.invalid/${"x".repeat(200)}`;
    expect((await post(t, "/api/v1/statuses", alice.token, { status: `${"a".repeat(476)} ${url}` })).status).toBe(200);
    expect((await post(t, "/api/v1/statuses", alice.token, { status: `${"a".repeat(477)} ${url}` })).status).toBe(422);
  });

  test("the spoiler text counts too; emoji count as one character", async () => {
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "a".repeat(490), spoiler_text: "b".repeat(11) })).status).toBe(422);
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "👩‍👩‍👧‍👦".repeat(500) })).status).toBe(200);
  });

  test("a mention of a remote account counts as @user, without its domain", async () => {
    const mention = "@ab@a-very-long-domain-name.remote.example";
    expect((await post(t, "/api/v1/statuses", alice.token, { status: `${"a".repeat(497)} ${mention}` })).status).toBe(422);
    expect((await post(t, "/api/v1/statuses", alice.token, { status: `${"a".repeat(496)} ${mention}` })).status).toBe(200);
  });

  test("absurdly long input is refused without a 500", async () => {
    const res = await post(t, "/api/v1/statuses", alice.token, { status: "a".repeat(200_000) });
    expect(res.status).toBe(422);
  });
});

describe("Idempotency-Key", () => {
  test("the same key returns the first status, whatever the body", async () => {
    const headers = { "idempotency-key": "key-1" };
    const first = await call(t, "POST", "/api/v1/statuses", alice.token, { status: "once" }, headers);
    const again = await call(t, "POST", "/api/v1/statuses", alice.token, { status: "twice?" }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.content).toBe("<p>once</p>");
  });

  test("concurrent requests with one key create one status", async () => {
    const headers = { "idempotency-key": "key-race" };
    const results = await Promise.all([1, 2, 3].map((n) => call(t, "POST", "/api/v1/statuses", alice.token, { status: `race ${n}` }, headers)));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
  });

  test("keys are per account, and a different key posts again", async () => {
    const headers = { "idempotency-key": "shared" };
    const a = await call(t, "POST", "/api/v1/statuses", alice.token, { status: "alice" }, headers);
    const b = await call(t, "POST", "/api/v1/statuses", bob.token, { status: "bob" }, headers);
    expect(a.body.id).not.toBe(b.body.id);
    const c = await call(t, "POST", "/api/v1/statuses", alice.token, { status: "alice" }, { "idempotency-key": "other" });
    expect(c.body.id).not.toBe(a.body.id);
  });
});

describe("bad input", () => {
  test("empty status without media: 422", async () => {
    for (const body of [{}, { status: "" }, { status: "   \n " }]) {
      const res = await post(t, "/api/v1/statuses", alice.token, body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: "Validation failed: Text can't be blank" });
    }
  });

  test("unknown visibility: 422", async () => {
    const res = await post(t, "/api/v1/statuses", alice.token, { status: "x", visibility: "friends" });
    expect(res.status).toBe(422);
    expect(res.body.error).toStartWith("Validation failed");
  });

  test("wrong types: 422, never 500", async () => {
    for (const body of [{ status: ["a", "b"] }, { status: "x", sensitive: "maybe" }, { status: { a: 1 } }]) {
      const res = await post(t, "/api/v1/statuses", alice.token, body);
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe("string");
    }
  });

  test("malformed JSON: 400", async () => {
    const res = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, headers: { "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
  });

  test("reply to a status that does not exist, is malformed or is not visible: 404", async () => {
    const hidden = await postStatus(t, alice, { status: "followers only", visibility: "private" });
    const stranger = await newUser(t, "stranger");
    for (const id of ["999999999999", "abc", hidden.id]) {
      const res = await post(t, "/api/v1/statuses", stranger.token, { status: "reply", in_reply_to_id: id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "The post you are trying to reply to does not appear to exist." });
    }
  });

  test("media_ids: unknown ids and more than four are refused", async () => {
    const unknown = await post(t, "/api/v1/statuses", alice.token, { status: "pic", media_ids: ["12345"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ error: "Could not find media attachments with IDs: 12345" });
    const many = await post(t, "/api/v1/statuses", alice.token, { status: "pics", media_ids: ["1", "2", "3", "4", "5"] });
    expect(many.status).toBe(422);
    expect(many.body).toEqual({ error: "Cannot attach more than 4 files" });
  });

  test("no token 401, bad token 401, read-only token 403, app token 422", async () => {
    expect((await post(t, "/api/v1/statuses", undefined, { status: "x" })).status).toBe(401);
    const bad = await post(t, "/api/v1/statuses", "nonsense", { status: "x" });
    expect(bad).toMatchObject({ status: 401, body: { error: "The access token is invalid" } });
    const reader = await newUser(t, "reader", "read");
    const readOnly = await post(t, "/api/v1/statuses", reader.token, { status: "x" });
    expect(readOnly).toMatchObject({ status: 403, body: { error: "This action is outside the authorized scopes" } });
    const scoped = await newUser(t, "scoped", "write:statuses");
    expect((await post(t, "/api/v1/statuses", scoped.token, { status: "x" })).status).toBe(200);
    const app = await createClientApp(t);
    const { access_token } = await appToken(t, app, "write");
    const appOnly = await post(t, "/api/v1/statuses", access_token, { status: "x" });
    expect(appOnly).toMatchObject({ status: 422, body: { error: "This method requires an authenticated user" } });
  });
});

describe("over-long hashtags", () => {
  test("a hashtag longer than 200 characters stays plain text instead of failing", async () => {
    const user = await newUser(t, "longtag");
    const long = "𝐀".repeat(240);
    const res = await post(t, "/api/v1/statuses", user.token, { status: `#${long}` });
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual([]);
    const longest = await post(t, "/api/v1/statuses", user.token, { status: `#${"𝐀".repeat(499)}` });
    expect(longest.status).toBe(200);
    const ok = await post(t, "/api/v1/statuses", user.token, { status: `#${"a".repeat(200)}` });
    expect(ok.body.tags).toHaveLength(1);
  });
});
