// Error answers as Mastodon gives them (API.md §1.1, §1.2): exact bodies for 401, 403, 404 and 422, and
// never a 500 for malformed input: huge or unparseable bodies, invalid UTF-8, values of the wrong shape,
// absurdly long ids, acct addresses, tags and tokens, unicode where ASCII is expected.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { changeUser } from "../../src/domain/accounts/manage.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { appToken, createUser, passwordToken, signedInUser, type ClientApp } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let user: string;
let userId: string;
let app: ClientApp;
let appOnly: string;

const INVALID_TOKEN = { error: "The access token is invalid" };
const OUT_OF_SCOPE = { error: "This action is outside the authorized scopes" };
const NEEDS_USER = { error: "This method requires an authenticated user" };
const NOT_FOUND = { error: "Record not found" };

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  const alice = await signedInUser(t, "alice");
  user = alice.token;
  userId = alice.id;
  app = alice.app;
  appOnly = (await appToken(t, app, "read write")).access_token;
});
afterAll(() => t.close());

async function answer(res: Response) {
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("401 The access token is invalid", () => {
  test("no token, an unknown one, an empty or huge one, another scheme", async () => {
    const headers: Record<string, string>[] = [{}, { authorization: "Bearer nope" }, { authorization: "Bearer " }, { authorization: `Bearer ${"x".repeat(10_000)}` }, { authorization: "Basic YTpi" }, { authorization: "Bearer a b" }];
    for (const h of headers) {
      expect(await answer(await t.request("/api/v1/accounts/verify_credentials", { headers: h }))).toEqual({ status: 401, body: INVALID_TOKEN });
    }
    expect(await answer(await t.request("/api/v1/timelines/home?access_token=nope"))).toEqual({ status: 401, body: INVALID_TOKEN });
  });

  test("a token too large for the header limit is 431, as JSON", async () => {
    const res = await t.request("/api/v1/accounts/verify_credentials", { headers: { authorization: `Bearer ${"x".repeat(100_000)}` } });
    expect(await answer(res)).toEqual({ status: 431, body: { error: "Request header fields too large (the limit is 12288 bytes)" } });
  });

  test("carries the bearer challenge of RFC 6750", async () => {
    const res = await t.request("/api/v1/accounts/verify_credentials", { token: "nope" });
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="Warren", error="invalid_token", error_description="The access token is invalid"');
  });

  test("a bad token on a public endpoint is refused, not ignored", async () => {
    expect(await answer(await t.request(`/api/v1/accounts/${userId}`, { token: "nope" }))).toEqual({ status: 401, body: INVALID_TOKEN });
  });

  test("comes before parameter checks: a bad token with bad parameters is still 401", async () => {
    expect(await answer(await t.request("/api/v1/accounts/lookup", { token: "nope" }))).toEqual({ status: 401, body: INVALID_TOKEN });
    expect(await answer(await t.request("/api/v1/statuses", { token: "nope" }))).toEqual({ status: 401, body: INVALID_TOKEN });
    const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", json: { locked: "perhaps", display_name: ["x"] } });
    expect(await answer(res)).toEqual({ status: 401, body: INVALID_TOKEN });
  });
});

describe("403", () => {
  test("a token without the scope: This action is outside the authorized scopes, before parameter checks", async () => {
    const push = (await passwordToken(t, app, "alice", "pw-alice-secret", "push")).access_token;
    expect(await answer(await t.request("/api/v1/accounts/verify_credentials", { token: push }))).toEqual({ status: 403, body: OUT_OF_SCOPE });
    const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: push, json: { locked: "perhaps" } });
    expect(await answer(res)).toEqual({ status: 403, body: OUT_OF_SCOPE });
  });

  test("logins that may not act: pending approval, unconfirmed e-mail, disabled", async () => {
    const pending = await createUser(t, "pending", { approved: false });
    const unconfirmed = await createUser(t, "unconfirmed", { confirmed: false });
    for (const [who, message] of [
      [pending, "Your login is currently pending approval"],
      [unconfirmed, "Your login is missing a confirmed e-mail address"],
    ] as const) {
      const token = (await passwordToken(t, app, who.username, who.password)).access_token;
      expect(await answer(await t.request("/api/v1/accounts/verify_credentials", { token }))).toEqual({ status: 403, body: { error: message } });
    }
    // Disabled after signing in (as an operator does with `accounts modify --disable`).
    const later = await signedInUser(t, "disabledlater");
    await changeUser(t.deps, normaliseId(later.id)!, { disabled: true });
    expect(await answer(await t.request("/api/v1/accounts/verify_credentials", { token: later.token }))).toEqual({
      status: 403,
      body: { error: "Your login is currently disabled" },
    });
  });

  test("a user token where an app token is needed", async () => {
    const res = await t.request("/api/v1/accounts", { method: "POST", token: user, json: {} });
    expect(await answer(res)).toEqual({ status: 403, body: { error: "This method requires an client credentials authentication" } });
  });
});

describe("404", () => {
  test("Record not found for unknown, malformed, huge and unicode ids", async () => {
    for (const id of ["1", "0", "abc", "-5", "9".repeat(40), "1".repeat(5000), "%F0%9F%90%87", "%00", "1.5"]) {
      expect(await answer(await t.request(`/api/v1/accounts/${id}`))).toEqual({ status: 404, body: NOT_FOUND });
      expect(await answer(await t.request(`/api/v1/accounts/${id}/follow`, { method: "POST", token: user }))).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  test("lookup and WebFinger: unknown, unicode and absurdly long addresses", async () => {
    // Long, yet within the 8 KiB request-target limit once percent-encoded (longer ones are 414, below).
    const names = ["nobody", "ñandú", "🐇", "a".repeat(5000), "é".repeat(1200)];
    for (const acct of [...names, `alice@${"b".repeat(5000)}.example`, `${"é".repeat(1200)}@localhost:3000`]) {
      expect(await answer(await t.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`))).toEqual({ status: 404, body: NOT_FOUND });
    }
    for (const name of names) {
      const res = await t.request(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:${name}@localhost:3000`)}`);
      expect(await answer(res)).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  test("unknown routes: Not Found", async () => {
    expect(await answer(await t.request("/api/v1/no/such/thing"))).toEqual({ status: 404, body: { error: "Not Found" } });
    expect(await answer(await t.request("/api/v1/instance", { method: "DELETE" }))).toEqual({ status: 404, body: { error: "Not Found" } });
  });
});

describe("422", () => {
  test("an app token where a user is needed: This method requires an authenticated user", async () => {
    expect(await answer(await t.request("/api/v1/accounts/verify_credentials", { token: appOnly }))).toEqual({ status: 422, body: NEEDS_USER });
    expect(await answer(await t.request("/api/v1/timelines/home", { token: appOnly }))).toEqual({ status: 422, body: NEEDS_USER });
  });

  test("values of the wrong shape: Validation failed, naming the parameter", async () => {
    const cases: [string, RequestInit & { token?: string; json?: unknown }][] = [
      ["/api/v1/apps", { method: "POST", json: { client_name: ["x"], redirect_uris: "urn:ietf:wg:oauth:2.0:oob" } }],
      ["/api/v1/accounts/update_credentials", { method: "PATCH", token: user, json: { display_name: { a: 1 } } }],
      ["/api/v1/accounts/update_credentials", { method: "PATCH", token: user, json: { locked: "perhaps" } }],
      ["/api/v1/accounts", { method: "POST", token: appOnly, json: { username: ["x"] } }],
      ["/api/v1/accounts/lookup?acct[]=alice", {}],
      ["/api/v1/accounts?id[x]=1", {}],
    ];
    for (const [path, init] of cases) {
      const { status, body } = await answer(await t.request(path, init));
      expect(status).toBe(422);
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toMatch(/^Validation failed: \S/);
    }
  });

  test("more than 40 ids", async () => {
    const query = Array.from({ length: 41 }, (_, i) => `id[]=${i + 1}`).join("&");
    expect(await answer(await t.request(`/api/v1/accounts?${query}`))).toEqual({
      status: 422,
      body: { error: "Validation failed: too many ids requested (maximum is 40)" },
    });
  });
});

describe("400", () => {
  test("a missing required parameter", async () => {
    expect(await answer(await t.request("/api/v1/accounts/lookup"))).toEqual({ status: 400, body: { error: "param is missing or the value is empty: acct" } });
  });

  test("an unparseable body", async () => {
    for (const [type, body] of [["application/json", "{oops"], ["application/json", "[".repeat(100_000)], ["multipart/form-data; boundary=x", "--x\r\nbroken"]]) {
      const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: user, headers: { "content-type": type! }, body });
      expect(await answer(res)).toEqual({ status: 400, body: { error: "Error occurred while parsing request parameters" } });
    }
  });

  test("too many parameters", async () => {
    const repeated = Array.from({ length: 1001 }, () => "a=1").join("&");
    expect(await answer(await t.request(`/api/v1/accounts/lookup?acct=alice&${repeated}`))).toEqual({ status: 400, body: { error: "Too many parameters" } });
    const params = Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join("&");
    const res = await t.request("/api/v1/apps", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: params });
    expect(await answer(res)).toEqual({ status: 400, body: { error: "Too many parameters" } });
    const json = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`p${i}`, 1]));
    expect(await answer(await t.request("/api/v1/apps", { method: "POST", json }))).toEqual({ status: 400, body: { error: "Too many parameters" } });
  });

  test("JSON nested too deeply", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 20; i++) deep = { a: deep };
    expect(await answer(await t.request("/api/v1/apps", { method: "POST", json: { client_name: "x", deep } }))).toEqual({
      status: 400,
      body: { error: "Request parameters are nested too deeply" },
    });
  });
});

describe("never a 500", () => {
  const huge = "x".repeat(2_000_000);
  const writes: [string, string, string | undefined][] = [
    ["POST", "/api/v1/apps", undefined],
    ["POST", "/api/v1/accounts", "app"],
    ["PATCH", "/api/v1/accounts/update_credentials", "user"],
    ["POST", "/oauth/token", undefined],
    ["POST", "/oauth/revoke", undefined],
    ["POST", "/api/v1/statuses", "user"],
  ];
  const token = (who: string | undefined) => (who === "app" ? appOnly : who === "user" ? user : undefined);

  test("huge values, JSON of every shape, invalid UTF-8, unknown content types", async () => {
    const bodies: RequestInit[] = [
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: huge, username: huge, display_name: huge, note: huge, status: huge, grant_type: huge, token: huge, email: `${huge}@x.y`, password: huge, redirect_uris: huge }) },
      { headers: { "content-type": "application/json" }, body: "[1,2,3]" },
      { headers: { "content-type": "application/json" }, body: '"just a string"' },
      { headers: { "content-type": "application/json" }, body: "null" },
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: { $gt: "" }, username: [null], fields_attributes: [[["x"]]], source: [1], scopes: { read: true }, redirect_uris: [[]] }) },
      { headers: { "content-type": "application/json" }, body: new Uint8Array([0x7b, 0x22, 0x75, 0x73, 0x65, 0x72, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new Uint8Array([0x75, 0x73, 0x65, 0x72, 0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xc3, 0x28, 0x26, 0x6e, 0x6f, 0x74, 0x65, 0x3d, 0xff]) },
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=%ZZ&b=%&[]=1&c[=2&d]]=3&e[][][]=4&fields_attributes[x][y][z]=1" },
      { headers: { "content-type": "text/plain" }, body: "hello" },
      { headers: { "content-type": "application/xml" }, body: "<?xml version='1.0'?><a/>" },
    ];
    const problems: string[] = [];
    for (const [method, path, who] of writes) {
      for (const init of bodies) {
        const headers = new Headers(init.headers);
        const bearer = token(who);
        if (bearer) headers.set("authorization", `Bearer ${bearer}`);
        const res = await t.request(path, { ...init, method, headers });
        if (res.status >= 500) problems.push(`${method} ${path}: ${res.status} ${await res.text()}`);
        const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
        if (res.status >= 400 && typeof body?.error !== "string") problems.push(`${method} ${path}: ${res.status} without an error`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("very long and unicode ids and tags in paths and queries", async () => {
    const long = "9".repeat(3000);
    const paths = [
      `/api/v1/accounts?id[]=${long}&id[]=${userId}`,
      `/api/v1/accounts/relationships?id[]=${long}`,
      `/api/v1/statuses?id[]=${long}`,
      `/api/v1/timelines/tag/${long}`,
      `/api/v1/timelines/tag/${"𝐀".repeat(600)}`,
      `/api/v1/accounts/${userId}/statuses?max_id=${long}&min_id=${long}&since_id=${long}&limit=${long}`,
      `/api/v1/accounts/${long}/followers`,
      `/.well-known/webfinger?resource=${encodeURIComponent(`https://localhost:3000/users/${long}`)}`,
    ];
    for (const path of paths) {
      const res = await t.request(path, { token: path.includes("relationships") ? user : undefined });
      expect(res.status).toBeLessThan(500);
      expect(typeof ((await res.json()) as unknown)).toBe("object");
    }
    const found = await t.request(`/api/v1/accounts?id[]=${long}&id[]=${userId}`);
    expect(((await found.json()) as { id: string }[]).map((a) => a.id)).toEqual([userId]);
  });
});
