// Hostile parameters, in every body type and the query string: names that reach into prototypes
// (`__proto__`, `constructor`, `prototype`) are refused before anything else happens and leave the process
// untouched; control characters never reach stored text; a plain value sent for a hash or an array is
// ignored, as Rails does; features a client asks for that Warren lacks are refused, never dropped.
// Job workers are on, as users run the server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, signedInUser } from "../helpers/clients.ts";

type Json = Record<string, any>;
let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let signUpToken: string;

const POLLUTABLE = ["role", "visibility", "status", "x", "polluted"];

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_REGISTRATIONS: "open" });
  alice = await signedInUser(t, "alice");
  signUpToken = (await appToken(t, await createClientApp(t), "read write")).access_token;
});
afterAll(async () => {
  // Were a test to fail by polluting the prototype, the rest of the run must not inherit it.
  for (const key of POLLUTABLE) delete (Object.prototype as Json)[key];
  await t.close();
});

const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Json });
const refused = (name: string) => ({ status: 400, body: { error: `Parameter name not allowed: ${name}` } });

function expectPristinePrototype() {
  for (const key of POLLUTABLE) expect(Object.hasOwn(Object.prototype, key)).toBe(false);
  expect(({} as Json).role).toBeUndefined();
}

function multipart(fields: [string, string][]): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

async function signUp(username: string) {
  const res = await t.request("/api/v1/accounts", {
    method: "POST",
    token: signUpToken,
    form: { username, email: `${username}@example.com`, password: "correct horse", agreement: "true" },
  });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as Json).access_token as string;
  return (await (await t.request("/api/v1/accounts/verify_credentials", { token })).json()) as Json;
}

describe("prototype pollution", () => {
  test("__proto__ in the query, before authentication, on any route: 400, and later sign-ups stay plain users", async () => {
    expect(await answer(await t.request("/api/v1/instance?__proto__[role]=Owner"))).toEqual(refused("__proto__"));
    expect(await answer(await t.request("/api/v1/instance?constructor[prototype][role]=Owner"))).toEqual(refused("constructor"));
    expect(await answer(await t.request("/api/v1/instance?a[__proto__][role]=Owner"))).toEqual(refused("__proto__"));
    expect(await answer(await t.request("/api/v1/instance?prototype=1"))).toEqual(refused("prototype"));
    expectPristinePrototype();
    const account = await signUp("newcomer");
    expect(account.role).toMatchObject({ id: "-99", name: "" });
  });

  test("__proto__ defaults in the query do not change later posts", async () => {
    const res = await t.request("/api/v1/timelines/public?__proto__[visibility]=direct&__proto__[status]=x");
    expect(await answer(res)).toEqual(refused("__proto__"));
    expectPristinePrototype();
    const post = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "plain" } });
    expect(((await post.json()) as Json).visibility).toBe("public");
  });

  test("form, multipart and JSON bodies: refused whatever the depth", async () => {
    const post = (init: RequestInit) => t.request("/api/v1/statuses", { method: "POST", token: alice.token, ...init });
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(await answer(await post({ headers: form, body: "status=x&__proto__[visibility]=direct" }))).toEqual(refused("__proto__"));
    expect(await answer(await post({ headers: form, body: "status=x&poll[__proto__][x]=1" }))).toEqual(refused("__proto__"));
    expect(await answer(await post({ body: multipart([["status", "x"], ["__proto__[visibility]", "direct"]]) }))).toEqual(refused("__proto__"));
    expect(await answer(await post({ body: multipart([["constructor[prototype][x]", "1"]]) }))).toEqual(refused("constructor"));
    const json = { "content-type": "application/json" };
    // Written as text: in a JavaScript object literal `__proto__` would set the prototype, not a key.
    expect(await answer(await post({ headers: json, body: '{"status":"x","__proto__":{"visibility":"direct"}}' }))).toEqual(refused("__proto__"));
    expect(await answer(await post({ headers: json, body: '{"status":"x","poll":{"constructor":{"prototype":{"x":1}}}}' }))).toEqual(refused("constructor"));
    expect(await answer(await post({ headers: json, body: '{"status":"x","media_ids":[{"prototype":1}]}' }))).toEqual(refused("prototype"));
    expectPristinePrototype();
    const plain = await post({ headers: json, body: '{"status":"still public"}' });
    expect(((await plain.json()) as Json).visibility).toBe("public");
  });

  test("names that merely look like the forbidden ones are ordinary parameters", async () => {
    const res = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "hi", __proto: "x", constructors: 1 } });
    expect(res.status).toBe(200);
  });
});

describe("control characters never reach stored text", () => {
  test("statuses, spoilers, profiles, fields and list titles, from JSON, form and multipart", async () => {
    const dirty = "a\u0000b\u0007c\u001bd\u007fe\u0085f\r\ng\th";
    const clean = "abcdef\ng\th";
    const status = await answer(await t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: dirty, spoiler_text: `cw${dirty}` } }));
    expect(status.status).toBe(200);
    expect(status.body.content).toBe("<p>abcdef<br />g\th</p>");
    expect(status.body.spoiler_text).toBe(`cw${clean}`);

    const form = { "display_name": "Al\u0000ice\u0008", "note": dirty, "fields_attributes[0][name]": "K\u0001ey", "fields_attributes[0][value]": "va\u0002lue" };
    const patched = await answer(await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, form }));
    expect(patched.status).toBe(200);
    expect(patched.body.display_name).toBe("Alice");
    expect(patched.body.source.note).toBe(clean);
    expect(patched.body.source.fields[0]).toMatchObject({ name: "Key", value: "value" });

    const multi = await answer(await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, body: multipart([["display_name", "Multi\u0000part"]]) }));
    expect(multi.body.display_name).toBe("Multipart");

    const list = await answer(await t.request("/api/v1/lists", { method: "POST", token: alice.token, json: { title: "Fri\u0000ends\u001f" } }));
    expect(list.body.title).toBe("Friends");
  });

  test("lone surrogates become U+FFFD", async () => {
    const res = await t.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: '{"status":"half \\ud83d pair"}',
    });
    expect(((await res.json()) as Json).content).toBe("<p>half \ufffd pair</p>");
  });
});

describe("Rails-like parameters", () => {
  test("a plain value where a hash or an array is expected is ignored (masto.js sends fields_attributes=undefined)", async () => {
    const set = multipart([["fields_attributes[0][name]", "Web"], ["fields_attributes[0][value]", "https://alice.example"]]);
    expect((await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, body: set })).status).toBe(200);
    const res = await t.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      body: multipart([["display_name", "Masto"], ["fields_attributes", "undefined"], ["source", "undefined"]]),
    });
    const { status, body } = await answer(res);
    expect(status).toBe(200);
    expect(body.display_name).toBe("Masto");
    expect(body.fields).toEqual([expect.objectContaining({ name: "Web" })]);
    expect(body.source.privacy).toBe("public");
  });
});

describe("what a client asked for is never silently dropped", () => {
  const post = (json: Json) => t.request("/api/v1/statuses", { method: "POST", token: alice.token, json });

  test("quoted_status_id of no status: 404; a malformed poll or schedule 422; nothing is posted", async () => {
    const before = ((await (await t.request("/api/v1/accounts/verify_credentials", { token: alice.token })).json()) as Json).statuses_count;
    const soon = new Date(Date.now() + 60_000).toISOString();
    expect(await answer(await post({ status: "later", scheduled_at: soon }))).toEqual({
      status: 422,
      body: { error: "Validation failed: Scheduled at The scheduled date must be in the future" },
    });
    expect(await answer(await post({ status: "vote", poll: { options: ["a", "b"], expires_in: 299 } }))).toEqual({
      status: 422,
      body: { error: "Validation failed: Poll expiration date is too soon" },
    });
    const form = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, form: { status: "vote", "poll[options][]": "a", "poll[expires_in]": "300" } });
    expect(form.status).toBe(422);
    expect((await post({ status: "quote", quoted_status_id: "1" })).status).toBe(404);
    const after = ((await (await t.request("/api/v1/accounts/verify_credentials", { token: alice.token })).json()) as Json).statuses_count;
    expect(after).toBe(before);
  });

  test("blank values mean not asked", async () => {
    expect((await post({ status: "now", scheduled_at: "", quoted_status_id: "" })).status).toBe(200);
  });
});
