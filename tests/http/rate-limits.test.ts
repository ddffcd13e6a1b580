// Mastodon's rate limits through HTTP: X-RateLimit-* headers, 429 with Retry-After, buckets per address
// (IPv6 per /64), per token and per user, sign-ups, password guessing by grant and by the sign-in form, deletes,
// paging, and windows aligned to the epoch (bun:test's setSystemTime moves the clock; no sleeping).
// In-process requests have no socket: they count as loopback, whose X-Forwarded-For names the client.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, setSystemTime, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser, passwordToken, type ClientApp } from "../helpers/clients.ts";
import { openAuthorizePage, submitAuthorize } from "../helpers/oauth.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let client: ClientApp;

// The clock stands still one second into an hour, so every window (5 minutes to an hour) has just begun and
// none ends while the file runs; the last test moves it.
const PINNED = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;

beforeAll(async () => {
  setSystemTime(new Date(PINNED));
  // Worker threads on: status deletion below hands its removal to jobs.
  t = await startTestApp({ WARREN_RATE_LIMITS: "on", WARREN_REGISTRATIONS: "open", WARREN_JOB_WORKERS: "2" });
  client = await createClientApp(t);
});
afterAll(() => {
  setSystemTime();
  return t.close();
});

const from = (ip: string, init: Parameters<TestApp["request"]>[1] = {}) => ({ ...init, headers: { ...init.headers, "x-forwarded-for": ip } });
const get = (path: string, ip: string, token?: string) => t.request(path, from(ip, { token }));
const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));

/** Sends `n` requests one after the other; returns the statuses seen. */
async function repeat(n: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await send()).status);
  return statuses;
}

async function expectTooMany(res: Response, limit: number) {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ error: "Too many requests" });
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  const retryAfter = Number(res.headers.get("retry-after"));
  const untilReset = (Date.parse(res.headers.get("x-ratelimit-reset")!) - Date.now()) / 1000;
  expect(retryAfter).toBeGreaterThan(0);
  expect(Math.abs(retryAfter - untilReset)).toBeLessThanOrEqual(1);
}

async function user(name: string) {
  const created = await createUser(t, name);
  return { ...created, token: (await passwordToken(t, client, name, created.password)).access_token };
}

describe("headers", () => {
  test("every API response says the limit, what is left and when the window ends, as Mastodon formats it", async () => {
    const first = await get("/api/v1/instance", "192.0.2.1");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("300");
    expect(remaining(first)).toBe(299);
    const reset = first.headers.get("x-ratelimit-reset")!;
    expect(reset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
    const resetAt = Date.parse(reset);
    expect(resetAt % (5 * 60_000)).toBe(0);
    expect(resetAt - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const missing = await get("/api/v1/statuses/1", "192.0.2.1");
    expect(missing.status).toBe(404);
    expect(remaining(missing)).toBe(298);
    expect((await get("/.well-known/host-meta", "192.0.2.1")).headers.has("x-ratelimit-limit")).toBe(false);
  });

  test("/openapi/json documents the 429 of API routes and password sign-ins", async () => {
    const paths = ((await (await t.request("/openapi/json")).json()) as { paths: Record<string, Record<string, { responses: object }>> }).paths;
    expect(Object.keys(paths["/api/v1/instance"]!.get!.responses)).toContain("429");
    expect(Object.keys(paths["/oauth/token"]!.post!.responses)).toContain("429");
    expect(Object.keys(paths["/oauth/authorize"]!.post!.responses)).toContain("429");
    expect(Object.keys(paths["/api/v1/streaming"]!.get!.responses)).toContain("429");
    expect(Object.keys(paths["/.well-known/host-meta"]!.get!.responses)).not.toContain("429");
  });

  test("a browser can read them, on a 429 too", async () => {
    const res = await t.request("/api/v1/instance", from("192.0.2.2", { headers: { origin: "https://elk.example" } }));
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    await repeat(299, () => get("/api/v1/instance", "192.0.2.2"));
    const refused = await t.request("/api/v1/instance", from("192.0.2.2", { headers: { origin: "https://elk.example" } }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("unauthenticated requests, per address", () => {
  test("300 in a window; the 301st is 429 with Retry-After; other addresses and tokens are not affected", async () => {
    const ip = "198.51.100.1";
    const statuses = await repeat(300, () => get("/api/v1/instance", ip));
    expect(statuses.every((s) => s === 200)).toBe(true);
    await expectTooMany(await get("/api/v1/instance", ip), 300);
    await expectTooMany(await get("/api/v1/timelines/public", ip), 300);
    const german = await t.request("/api/v1/instance?lang=de", from(ip));
    expect(german.status).toBe(429);
    expect(await german.json()).toEqual({ error: "Zu viele Anfragen" });

    expect((await get("/api/v1/instance", "198.51.100.2")).status).toBe(200);
    const alice = await user("alice");
    const signedIn = await get("/api/v1/accounts/verify_credentials", ip, alice.token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("x-ratelimit-limit")).toBe("300"); // the token's allowance: fewer left than the user's 1,500
    expect(remaining(signedIn)).toBe(299);
  });

  test("IPv6 clients count per /64; IPv4-mapped addresses count as IPv4", async () => {
    expect(remaining(await get("/api/v1/instance", "2001:db8:1:2::1"))).toBe(299);
    expect(remaining(await get("/api/v1/instance", "2001:db8:1:2:ffff:ffff:ffff:ffff"))).toBe(298);
    expect(remaining(await get("/api/v1/instance", "2001:db8:1:3::1"))).toBe(299);
    expect(remaining(await get("/api/v1/instance", "203.0.113.9"))).toBe(299);
    expect(remaining(await get("/api/v1/instance", "::ffff:203.0.113.9"))).toBe(298);
  });

  test("X-Forwarded-For is read from the right: the first address that is not a trusted proxy is the client", async () => {
    expect(remaining(await get("/api/v1/instance", "203.0.113.20, 203.0.113.21"))).toBe(299);
    expect(remaining(await get("/api/v1/instance", "203.0.113.22, 203.0.113.21, 127.0.0.1"))).toBe(298);
    expect(remaining(await get("/api/v1/instance", "203.0.113.21"))).toBe(297);
  });
});

describe("authenticated requests", () => {
  test("300 per token; another token of the same user has its own", async () => {
    const bob = await user("bob");
    const statuses = await repeat(300, () => get("/api/v1/accounts/verify_credentials", "198.51.100.10", bob.token));
    expect(statuses.every((s) => s === 200)).toBe(true);
    await expectTooMany(await get("/api/v1/accounts/verify_credentials", "198.51.100.11", bob.token), 300);

    const second = (await passwordToken(t, client, "bob", bob.password)).access_token;
    const res = await get("/api/v1/accounts/verify_credentials", "198.51.100.10", second);
    expect(res.status).toBe(200);
    expect(remaining(res)).toBe(299);
  });

  test("paging requests: 300 per user in 15 minutes, whatever the token", async () => {
    const carol = await user("carol");
    const other = (await passwordToken(t, client, "carol", carol.password)).access_token;
    const page = (token: string) => get("/api/v1/timelines/home?max_id=999999999999999999", "198.51.100.12", token);
    expect((await repeat(150, () => page(carol.token))).every((s) => s === 200)).toBe(true);
    expect((await repeat(150, () => page(other))).every((s) => s === 200)).toBe(true);
    const refused = await page(other);
    await expectTooMany(refused, 300);
    expect(Date.parse(refused.headers.get("x-ratelimit-reset")!) % (15 * 60_000)).toBe(0);
    expect((await get("/api/v1/timelines/home", "198.51.100.12", other)).status).toBe(200);
  });

  test("deletes: 30 per user in 30 minutes", async () => {
    const dave = await user("dave");
    const ids: string[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.request("/api/v1/statuses", from("198.51.100.13", { method: "POST", token: dave.token, json: { status: `post ${i}` } }));
      ids.push(((await res.json()) as { id: string }).id);
    }
    const remove = (id: string) => t.request(`/api/v1/statuses/${id}`, from("198.51.100.13", { method: "DELETE", token: dave.token }));
    const first = await remove(ids[0]!);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("30");
    expect(remaining(first)).toBe(29);
    expect((await repeat(29, () => remove(ids.pop()!))).every((s) => s === 200)).toBe(true);
    await expectTooMany(await remove(ids.pop()!), 30);
  });
});

describe("sign-ups and sign-ins", () => {
  test("sign-ups: 5 per address in 30 minutes", async () => {
    const token = (await appToken(t, client, "write")).access_token;
    const signUp = (name: string, ip: string) =>
      t.request("/api/v1/accounts", from(ip, {
        method: "POST",
        token,
        form: { username: name, email: `${name}@example.com`, password: "correct horse", agreement: "true" },
      }));
    for (let i = 0; i < 5; i++) expect((await signUp(`joiner${i}`, "198.51.100.20")).status).toBe(200);
    await expectTooMany(await signUp("joiner5", "198.51.100.20"), 5);
    expect((await signUp("joiner6", "198.51.100.21")).status).toBe(200);
  });

  const grant = (username: string, password: string, ip: string) =>
    t.request("/oauth/token", from(ip, {
      method: "POST",
      form: { grant_type: "password", client_id: client.client_id, client_secret: client.client_secret, username, password, scope: "read" },
    }));

  test("password grant: 25 attempts per address in 5 minutes, even with the right password after", async () => {
    const erin = await createUser(t, "erin");
    let n = 0;
    const guesses = await repeat(25, () => grant(`someone${n++}`, "guess", "198.51.100.30"));
    expect(guesses.every((s) => s === 400)).toBe(true);
    await expectTooMany(await grant("erin", erin.password, "198.51.100.30"), 25);
    // Refused by the address's limit, the attempt did not use up any of erin's own allowance.
    const elsewhere = await grant("erin", erin.password, "198.51.100.31");
    expect(elsewhere.status).toBe(200);
    expect(remaining(elsewhere)).toBe(24);
  });

  test("password grant: 25 attempts per account in an hour from any addresses, by username or e-mail", async () => {
    const frank = await createUser(t, "frank");
    for (let i = 0; i < 24; i++) expect((await grant(i % 2 ? "frank" : frank.email, "guess", `198.51.100.${40 + i}`)).status).toBe(400);
    const last = await grant("FRANK", "guess", "198.51.100.70");
    expect(last.status).toBe(400);
    expect(last.headers.get("x-ratelimit-limit")).toBe("25");
    expect(remaining(last)).toBe(0);
    const refused = await grant("frank", frank.password, "198.51.100.71");
    await expectTooMany(refused, 25);
    expect(Date.parse(refused.headers.get("x-ratelimit-reset")!) % 3_600_000).toBe(0);
    // Someone else signs in from the same address.
    const grace = await createUser(t, "grace");
    expect((await grant("grace", grace.password, "198.51.100.71")).status).toBe(200);
  });

  test("the sign-in form of the authorization page counts against the same allowances", async () => {
    const heidi = await createUser(t, "heidi");
    const params = { response_type: "code", client_id: client.client_id, redirect_uri: "urn:ietf:wg:oauth:2.0:oob", scope: "read" };
    const page = await openAuthorizePage(t, params);
    const submit = (ip: string, form: Record<string, string>) =>
      t.request("/oauth/authorize", from(ip, { method: "POST", headers: { cookie: page.jar.header() }, form: { ...page.fields, decision: "approve", ...form } }));
    const guesses = await repeat(25, () => submit("198.51.100.80", { username: "heidi", password: "guess" }));
    expect(guesses.every((s) => s === 401)).toBe(true);
    await expectTooMany(await submit("198.51.100.80", { username: "heidi", password: heidi.password }), 25);
    await expectTooMany(await grant("heidi", heidi.password, "198.51.100.81"), 25);

    // Approving again with the session a sign-in left is not a sign-in attempt (the page, opened again, has
    // a CSRF token bound to that session).
    const ivan = await createUser(t, "ivan");
    const signedIn = await submitAuthorize(t, page.jar, { ...page.fields, username: "ivan", password: ivan.password, decision: "approve" });
    expect(signedIn.status).toBe(200);
    const consent = await openAuthorizePage(t, params, page.jar);
    const approvals = await repeat(30, () => submit("198.51.100.82", { authenticity_token: consent.fields.authenticity_token! }));
    expect(approvals.every((s) => s === 200)).toBe(true);
  });
});

describe("windows", () => {
  afterEach(() => setSystemTime(new Date(PINNED)));

  test("are fixed and aligned to the epoch: the next one starts from zero", async () => {
    const windowStart = PINNED - 1000 + 600_000;
    setSystemTime(new Date(windowStart + 200_000)); // 200 s into a 5-minute window
    const ip = "198.51.100.90";
    await repeat(300, () => get("/api/v1/instance", ip));
    const refused = await get("/api/v1/instance", ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("100");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(new Date(windowStart + 300_000).toISOString().replace("Z", "000Z"));

    setSystemTime(new Date(windowStart + 299_999));
    expect((await get("/api/v1/instance", ip)).status).toBe(429);
    setSystemTime(new Date(windowStart + 300_000));
    const next = await get("/api/v1/instance", ip);
    expect(next.status).toBe(200);
    expect(remaining(next)).toBe(299);
  });
});
