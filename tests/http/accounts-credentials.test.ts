// GET /api/v1/accounts/verify_credentials and PATCH /api/v1/accounts/update_credentials.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser, passwordToken, signedInUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signedInUser(t, "boss", undefined, { role: "Admin" });
});
afterAll(() => t.close());

type Json = Record<string, any>;

const me = (token: string) => t.request("/api/v1/accounts/verify_credentials", { token });
const patch = (token: string, init: { json?: unknown; form?: Record<string, string>; body?: FormData }) =>
  t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token, ...init });

async function tokenWith(username: string, scope: string) {
  const app = await createClientApp(t);
  return (await passwordToken(t, app, username, `pw-${username}-secret`, scope)).access_token;
}

describe("verify_credentials", () => {
  test("answered from kept bytes, which a profile change, a new follower or a follow request replaces at once", async () => {
    const user = await signedInUser(t, "keptme");
    const [fan, asker] = [await signedInUser(t, "keptfan"), await signedInUser(t, "keptasker")];
    const read = async () => (await (await me(user.token)).json()) as Json;
    expect(await read()).toEqual(await read());
    expect((await patch(user.token, { json: { display_name: "Kept", locked: true } })).status).toBe(200);
    expect(await read()).toMatchObject({ display_name: "Kept", locked: true, source: { follow_requests_count: 0 } });
    expect((await t.request(`/api/v1/accounts/${user.id}/follow`, { method: "POST", token: asker.token, json: {} })).status).toBe(200);
    expect((await read()).source.follow_requests_count).toBe(1);
    expect((await patch(user.token, { json: { locked: false } })).status).toBe(200);
    expect((await t.request(`/api/v1/accounts/${user.id}/follow`, { method: "POST", token: fan.token, json: {} })).status).toBe(200);
    await t.deps.jobs.drain();
    expect(await read()).toMatchObject({ locked: false, followers_count: 2 }); // unlocking accepted the pending request
  });

  test("a new user's CredentialAccount", async () => {
    const user = await signedInUser(t, "fresh");
    const res = await me(user.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({
      id: user.id,
      username: "fresh",
      acct: "fresh",
      display_name: "",
      note: "",
      url: "http://localhost:3000/@fresh",
      uri: "http://localhost:3000/users/fresh",
      avatar: "http://localhost:3000/avatars/original/missing.png",
      avatar_static: "http://localhost:3000/avatars/original/missing.png",
      header: "http://localhost:3000/headers/original/missing.png",
      header_static: "http://localhost:3000/headers/original/missing.png",
      locked: false,
      bot: false,
      group: false,
      discoverable: true,
      indexable: true,
      noindex: false,
      hide_collections: false,
      last_status_at: null,
      statuses_count: 0,
      followers_count: 0,
      following_count: 0,
      emojis: [],
      fields: [],
      roles: [],
      show_featured: true,
      feature_approval: { automatic: ["public"], manual: [], current_user: "automatic" },
      source: {
        privacy: "public",
        sensitive: false,
        language: null,
        note: "",
        fields: [],
        follow_requests_count: 0,
        hide_collections: false,
        discoverable: true,
        indexable: true,
        attribution_domains: [],
        quote_policy: "public",
      },
      role: { id: "-99", name: "", permissions: "65536", color: "", highlighted: false, collection_limit: 10 },
    });
    expect(body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    for (const absent of ["suspended", "limited", "memorial", "moved"]) expect(body).not.toHaveProperty(absent);
  });

  test("carries every key of Mastodon 4.6's response", async () => {
    await patch(admin.token, { json: { fields_attributes: [{ name: "Site", value: "https://boss.example" }] } });
    const body = await (await me(admin.token)).json();
    expect(missingKeys(body, referenceKeys("GET /api/v1/accounts/verify_credentials"))).toEqual([]);
  });

  test("staff roles carry their permissions and show as a badge", async () => {
    const body = (await (await me(admin.token)).json()) as Json;
    expect(body.role).toEqual({ id: "2", name: "Admin", permissions: "2097148", color: "", highlighted: true, collection_limit: 10 });
    expect(body.roles).toEqual([{ id: "2", name: "Admin", color: "" }]);
    const owner = await signedInUser(t, "owner", undefined, { role: "Owner" });
    const ownerBody = (await (await me(owner.token)).json()) as Json;
    expect(ownerBody.role).toMatchObject({ id: "3", name: "Owner", permissions: String(2 ** 23 - 1) });
  });

  test("profile or read:accounts suffice; other scopes are 403", async () => {
    await createUser(t, "scoped");
    expect((await me(await tokenWith("scoped", "profile"))).status).toBe(200);
    expect((await me(await tokenWith("scoped", "read:accounts"))).status).toBe(200);
    const res = await me(await tokenWith("scoped", "write:statuses"));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This action is outside the authorized scopes" });
  });

  test("no or a bad token is 401; an app token is 422", async () => {
    const none = await t.request("/api/v1/accounts/verify_credentials");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: "The access token is invalid" });
    expect((await me("garbage")).status).toBe(401);
    const app = await createClientApp(t);
    const res = await me((await appToken(t, app, "read")).access_token);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "This method requires an authenticated user" });
  });
});

describe("update_credentials", () => {
  let user: Awaited<ReturnType<typeof signedInUser>>;
  beforeAll(async () => {
    user = await signedInUser(t, "editor");
  });

  test("JSON: profile, flags, posting defaults and fields", async () => {
    const res = await patch(user.token, {
      json: {
        display_name: "  Ed Itor  ",
        note: "Hi <there> & welcome!\nSecond line https://example.com/x.\n\nNew paragraph",
        locked: true,
        bot: "1",
        discoverable: false,
        indexable: "false",
        hide_collections: true,
        avatar_description: "A cat",
        header_description: "A field",
        source: { privacy: "private", sensitive: true, language: "de" },
        fields_attributes: { "1": { name: "Second", value: "two" }, "0": { name: "Web", value: "https://ed.example/" } },
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({
      display_name: "Ed Itor",
      locked: true,
      bot: true,
      discoverable: false,
      indexable: false,
      hide_collections: true,
      avatar_description: "A cat",
      header_description: "A field",
      feature_approval: { automatic: [], manual: [], current_user: "denied" },
      source: {
        privacy: "private",
        sensitive: true,
        language: "de",
        note: "Hi <there> & welcome!\nSecond line https://example.com/x.\n\nNew paragraph",
        fields: [
          { name: "Web", value: "https://ed.example/", verified_at: null },
          { name: "Second", value: "two", verified_at: null },
        ],
        discoverable: false,
        indexable: false,
        hide_collections: true,
      },
    });
    expect(body.note).toBe(
      '<p>Hi &lt;there&gt; &amp; welcome!<br />Second line <a href="https://example.com/x" target="_blank" rel="nofollow noopener" translate="no">' +
        '<span class="invisible">https://</span><span class="">example.com/x</span><span class="invisible"></span></a>.</p><p>New paragraph</p>',
    );
    expect(body.fields).toEqual([
      {
        name: "Web",
        value:
          '<a href="https://ed.example/" target="_blank" rel="nofollow noopener me" translate="no"><span class="invisible">https://</span>' +
          '<span class="">ed.example/</span><span class="invisible"></span></a>',
        verified_at: null,
      },
      { name: "Second", value: "two", verified_at: null },
    ]);
    // What was not sent is left alone.
    const again = (await (await patch(user.token, { json: { bot: false } })).json()) as Json;
    expect(again).toMatchObject({ display_name: "Ed Itor", locked: true, bot: false, source: { privacy: "private" } });
  });

  test("long URLs are shortened with an ellipsis", async () => {
    const body = (await (await patch(user.token, { json: { note: "see https://www.example.com/a/rather/long/path/beyond/thirty/characters" } })).json()) as Json;
    expect(body.note).toContain('<span class="invisible">https://www.</span><span class="ellipsis">example.com/a/rather/long/path</span><span class="invisible">/beyond/thirty/characters</span>');
  });

  test("form-encoded with indexed fields", async () => {
    const res = await patch(user.token, {
      form: {
        display_name: "Formed",
        "fields_attributes[0][name]": "Pronouns",
        "fields_attributes[0][value]": "they/them",
        "fields_attributes[1][name]": "",
        "fields_attributes[1][value]": "",
        "source[privacy]": "unlisted",
        locked: "false",
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ display_name: "Formed", locked: false, source: { privacy: "unlisted" } });
    expect(body.fields).toEqual([{ name: "Pronouns", value: "they/them", verified_at: null }]);
  });

  test("multipart (image uploads: accounts-media.test.ts)", async () => {
    const form = new FormData();
    form.set("display_name", "Multi");
    form.set("note", "line one\r\nline two");
    const res = await patch(user.token, { body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.display_name).toBe("Multi");
    expect(body.source.note).toBe("line one\nline two");
    expect(body.note).toBe("<p>line one<br />line two</p>");
    expect(body.avatar).toBe("http://localhost:3000/avatars/original/missing.png");
  });

  test("an empty note clears the bio; limits are counted in characters", async () => {
    const emoji = "🐇".repeat(30);
    const body = (await (await patch(user.token, { json: { note: "", display_name: emoji } })).json()) as Json;
    expect(body.note).toBe("");
    expect(body.display_name).toBe(emoji);
  });

  test("a URL counts 23 characters towards the bio limit", async () => {
    const note = "x".repeat(470) + " https://example.com/" + "p".repeat(100);
    expect((await patch(user.token, { json: { note } })).status).toBe(200);
  });

  async function problems(json: unknown) {
    const res = await patch(user.token, { json });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; details: Json };
    expect(body.error).toStartWith("Validation failed: ");
    return body.details;
  }

  test("oversized display name, bio and descriptions", async () => {
    expect(await problems({ display_name: "d".repeat(31), note: "n".repeat(501), avatar_description: "a".repeat(151), header_description: "h".repeat(151) })).toEqual({
      display_name: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 30 characters)" }],
      note: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 500 characters)" }],
      avatar_description: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 150 characters)" }],
      header_description: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 150 characters)" }],
    });
  });

  test("too many fields, oversized fields, values without names", async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `n${i}`, value: `v${i}` }));
    expect(await problems({ fields_attributes: five })).toEqual({
      fields: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 4 fields)" }],
    });
    expect(await problems({ fields_attributes: [{ name: "n".repeat(256), value: "v".repeat(256) }] })).toEqual({
      fields: [
        { error: "ERR_TOO_LONG", description: "name is too long (maximum is 255 characters)" },
        { error: "ERR_TOO_LONG", description: "value is too long (maximum is 255 characters)" },
      ],
    });
    expect(await problems({ fields_attributes: [{ name: "", value: "orphan" }] })).toEqual({
      fields: [{ error: "ERR_INVALID", description: "have values missing labels" }],
    });
  });

  test("unknown posting defaults", async () => {
    expect(await problems({ source: { privacy: "direct", language: "english" } })).toEqual({
      "source.privacy": [{ error: "ERR_INCLUSION", description: "is not included in the list" }],
      "source.language": [{ error: "ERR_INCLUSION", description: "is not included in the list" }],
    });
  });

  test("a rejected update changes nothing", async () => {
    await patch(user.token, { json: { display_name: "Kept" } });
    await problems({ display_name: "Changed", note: "n".repeat(501) });
    expect(((await (await me(user.token)).json()) as Json).display_name).toBe("Kept");
  });

  test("wrong-typed values are 422", async () => {
    const res = await patch(user.token, { json: { locked: "maybe" } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Json).error).toStartWith("Validation failed");
    for (const fields_attributes of [["a"], [{ name: { nested: "x" } }]]) {
      expect(await problems({ fields_attributes })).toEqual({ fields: [{ error: "ERR_INVALID", description: "is invalid" }] });
    }
  });

  test("scopes and tokens", async () => {
    await createUser(t, "reader");
    const readOnly = await patch(await tokenWith("reader", "read"), { json: { display_name: "x" } });
    expect(readOnly.status).toBe(403);
    expect(await readOnly.json()).toEqual({ error: "This action is outside the authorized scopes" });
    expect((await patch(await tokenWith("reader", "write:accounts"), { json: { display_name: "x" } })).status).toBe(200);
    expect((await patch("garbage", { json: {} })).status).toBe(401);
    const app = await createClientApp(t);
    const appOnly = await patch((await appToken(t, app, "write")).access_token, { json: {} });
    expect(appOnly.status).toBe(422);
    expect(await appOnly.json()).toEqual({ error: "This method requires an authenticated user" });
  });
});

describe("attribution_domains", () => {
  test("stored normalised, echoed in source, replaced as a whole; JSON, form and multipart", async () => {
    const user = await signedInUser(t, "writer");
    let res = await patch(user.token, { json: { attribution_domains: ["Example.COM", " blog.example.org ", "example.com"] } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).source.attribution_domains).toEqual(["example.com", "blog.example.org"]);
    expect(((await (await me(user.token)).json()) as Json).source.attribution_domains).toEqual(["example.com", "blog.example.org"]);

    const form = new URLSearchParams([["attribution_domains[]", "news.example"], ["attribution_domains[]", "xn--bcher-kva.example"]]);
    res = await t.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: user.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).source.attribution_domains).toEqual(["news.example", "xn--bcher-kva.example"]);

    const multipart = new FormData();
    multipart.append("attribution_domains[]", "bücher.example");
    res = await patch(user.token, { body: multipart });
    expect(((await res.json()) as Json).source.attribution_domains).toEqual(["xn--bcher-kva.example"]);

    // Other updates leave them alone; an empty list clears them.
    res = await patch(user.token, { json: { display_name: "W" } });
    expect(((await res.json()) as Json).source.attribution_domains).toEqual(["xn--bcher-kva.example"]);
    res = await patch(user.token, { json: { attribution_domains: [] } });
    expect(((await res.json()) as Json).source.attribution_domains).toEqual([]);
  });

  test("invalid domains and more than 10 are a 422 that changes nothing", async () => {
    const user = await signedInUser(t, "writer2");
    await patch(user.token, { json: { attribution_domains: ["keep.example"] } });
    for (const bad of [["https://example.com/path"], ["not a domain"], ["localhost"], ["a".repeat(300) + ".example"], ["__proto__"]]) {
      const res = await patch(user.token, { json: { attribution_domains: bad, display_name: "changed" } });
      expect(res.status).toBe(422);
      expect(((await res.json()) as Json).error).toContain("Attribution domains");
    }
    const eleven = Array.from({ length: 11 }, (_, i) => `site${i}.example`);
    const res = await patch(user.token, { json: { attribution_domains: eleven } });
    expect(res.status).toBe(422);
    const after = (await (await me(user.token)).json()) as Json;
    expect(after.source.attribution_domains).toEqual(["keep.example"]);
    expect(after.display_name).toBe("");
  });
});
