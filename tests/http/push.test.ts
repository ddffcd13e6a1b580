// POST/GET/PUT/DELETE /api/v1/push/subscription (API.md §7.8): scopes and users, validation (400 for a
// missing subscription, 422 for what is wrong in it), one subscription per token, PUT changing data only,
// the WebPushSubscription entity, and the VAPID key: made on first start, kept, the same everywhere.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, passwordToken, signedInUser } from "../helpers/clients.ts";
import { newDevice } from "../helpers/push.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { call, get, post } from "./statuses-helpers.ts";
import { openStore } from "../../src/store/db.ts";
import { ensureVapidKeys } from "../../src/domain/push/vapid.ts";

setDefaultTimeout(30_000);

const PATH = "/api/v1/push/subscription";
const ALERT_TYPES = [
  "mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update", "admin.sign_up", "admin.report",
  "severed_relationships", "moderation_warning", "annual_report", "quote", "quoted_update",
];
const NONE = Object.fromEntries(ALERT_TYPES.map((type) => [type, false]));

let t: TestApp;
let user: Awaited<ReturnType<typeof signedInUser>>;
let serverKey: string;

const device = newDevice();
const keys = { p256dh: device.p256dh, auth: device.auth };
const ENDPOINT = "https://push.example/send/abc123";

/** Reference keys of an endpoint without the alerts' own (their names hold dots: checked by name below). */
const shapeKeys = (endpoint: string) => referenceKeys(endpoint).filter((key) => !key.startsWith("alerts."));

beforeAll(async () => {
  t = await startTestApp();
  user = await signedInUser(t, "pusher");
  serverKey = (await get(t, "/api/v2/instance")).body.configuration.vapid.public_key;
});
afterAll(() => t.close());

describe("who may", () => {
  test("no token 401, a token without push 403, an app token 422", async () => {
    const body = { subscription: { endpoint: ENDPOINT, keys } };
    expect((await post(t, PATH, undefined, body)).status).toBe(401);
    const readOnly = await passwordToken(t, user.app, user.username, user.password, "read write");
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      const res = await call(t, method, PATH, readOnly.access_token, method === "GET" ? undefined : body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    }
    const app = await appToken(t, user.app, "push");
    const res = await post(t, PATH, app.access_token, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "This method requires an authenticated user" });
  });

  test("a token with only the push scope is enough", async () => {
    const token = (await passwordToken(t, user.app, user.username, user.password, "push")).access_token;
    expect((await post(t, PATH, token, { subscription: { endpoint: ENDPOINT, keys } })).status).toBe(200);
    expect((await get(t, PATH, token)).status).toBe(200);
  });
});

describe("validation", () => {
  const attempt = (subscription: unknown, data?: unknown) => post(t, PATH, user.token, { subscription, ...(data === undefined ? {} : { data }) });

  test("a missing subscription is 400", async () => {
    for (const body of [{}, { data: { policy: "all" } }, { subscription: "https://push.example/" }]) {
      const res = await post(t, PATH, user.token, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "param is missing or the value is empty: subscription" });
    }
  });

  test("the endpoint must be an https URL on a public host", async () => {
    const cases: [unknown, string][] = [
      [undefined, "Validation failed: Endpoint can't be blank"],
      ["  ", "Validation failed: Endpoint can't be blank"],
      ["not a url", "Validation failed: Endpoint is not a valid URL"],
      ["http://push.example/send", "Validation failed: Endpoint must be an https URL"],
      ["ftp://push.example/send", "Validation failed: Endpoint must be an https URL"],
      ["https://user:pw@push.example/send", "Validation failed: Endpoint must not carry credentials"],
      ["https://127.0.0.1/send", "Validation failed: Endpoint must be on a public host"],
      ["https://[::1]:8443/send", "Validation failed: Endpoint must be on a public host"],
      ["https://10.1.2.3/send", "Validation failed: Endpoint must be on a public host"],
      ["https://localhost/send", "Validation failed: Endpoint must be on a public host"],
      [`https://push.example/${"x".repeat(2100)}`, "Validation failed: Endpoint is too long (maximum is 2048 characters)"],
    ];
    for (const [endpoint, error] of cases) {
      const res = await attempt({ endpoint, keys });
      expect({ endpoint, status: res.status, body: res.body }).toEqual({ endpoint, status: 422, body: { error } });
    }
  });

  test("the keys must be a P-256 point and a 16-byte secret", async () => {
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url");
    const cases: [Record<string, unknown> | undefined, string][] = [
      [undefined, "Validation failed: Key p256dh can't be blank"],
      [{ auth: keys.auth }, "Validation failed: Key p256dh can't be blank"],
      [{ p256dh: keys.p256dh }, "Validation failed: Key auth can't be blank"],
      [{ p256dh: "not base64!", auth: keys.auth }, "Validation failed: Key p256dh is not a valid P-256 public key"],
      [{ p256dh: keys.p256dh.slice(0, 60), auth: keys.auth }, "Validation failed: Key p256dh is not a valid P-256 public key"],
      [{ p256dh: offCurve, auth: keys.auth }, "Validation failed: Key p256dh is not a valid P-256 public key"],
      [{ p256dh: keys.p256dh, auth: randomBytes(15).toString("base64url") }, "Validation failed: Key auth must be 16 bytes"],
      [{ p256dh: keys.p256dh, auth: randomBytes(32).toString("base64url") }, "Validation failed: Key auth must be 16 bytes"],
    ];
    for (const [given, error] of cases) {
      const res = await attempt({ endpoint: ENDPOINT, keys: given });
      expect({ given, status: res.status, body: res.body }).toEqual({ given, status: 422, body: { error } });
    }
  });

  test("keys in the standard base64 alphabet with padding are accepted (and kept as base64url)", async () => {
    const toStandard = (text: string) => Buffer.from(text, "base64url").toString("base64");
    const res = await attempt({ endpoint: ENDPOINT, keys: { p256dh: toStandard(keys.p256dh), auth: toStandard(keys.auth) } });
    expect(res.status).toBe(200);
  });

  test("an unknown policy is 422; unknown alert types and non-boolean words are refused or ignored", async () => {
    const res = await attempt({ endpoint: ENDPOINT, keys }, { policy: "friends" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed: Policy is not included in the list" });
    const unknown = await attempt({ endpoint: ENDPOINT, keys }, { alerts: { mention: true, reaction: true } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.alerts).toEqual({ ...NONE, mention: true });
    expect((await attempt({ endpoint: ENDPOINT, keys }, { alerts: { mention: "maybe" } })).status).toBe(422);
  });
});

describe("the subscription of a token", () => {
  test("POST answers the WebPushSubscription; absent alerts are off, policy all, standard false", async () => {
    const token = (await passwordToken(t, user.app, user.username, user.password)).access_token;
    const res = await post(t, PATH, token, { subscription: { endpoint: ENDPOINT, keys }, data: { alerts: { mention: true, "admin.sign_up": true, follow: false } } });
    expect(res.status).toBe(200);
    expect(missingKeys(res.body, shapeKeys("POST /api/v1/push/subscription"))).toEqual([]);
    expect(Object.keys(res.body.alerts).sort()).toEqual([...ALERT_TYPES].sort());
    expect(res.body).toEqual({
      id: expect.any(Number),
      endpoint: ENDPOINT,
      standard: false,
      alerts: { ...NONE, mention: true, "admin.sign_up": true },
      policy: "all",
      server_key: serverKey,
    });
    expect(Number.isInteger(res.body.id) && res.body.id > 0).toBe(true);
    const read = await get(t, PATH, token);
    expect(read.status).toBe(200);
    expect(missingKeys(read.body, shapeKeys("GET /api/v1/push/subscription"))).toEqual([]);
    expect(read.body).toEqual(res.body);
  });

  test("form parameters as Mastodon's docs write them: subscription[keys][p256dh], data[alerts][admin.report]", async () => {
    const token = (await passwordToken(t, user.app, user.username, user.password)).access_token;
    const res = await t.request(PATH, {
      method: "POST",
      token,
      form: {
        "subscription[endpoint]": ENDPOINT,
        "subscription[keys][p256dh]": keys.p256dh,
        "subscription[keys][auth]": keys.auth,
        "subscription[standard]": "true",
        "data[alerts][admin.report]": "true",
        "data[alerts][favourite]": "1",
        "data[alerts][reblog]": "false",
        "data[policy]": "follower",
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ standard: true, policy: "follower", alerts: { ...NONE, "admin.report": true, favourite: true } });
  });

  test("one per token: POST replaces it (a new id), another token of the same user has its own", async () => {
    const [a, b] = [
      (await passwordToken(t, user.app, user.username, user.password)).access_token,
      (await passwordToken(t, user.app, user.username, user.password)).access_token,
    ];
    expect((await get(t, PATH, a)).status).toBe(404);
    expect((await get(t, PATH, a)).body).toEqual({ error: "Not Found" });
    const first = (await post(t, PATH, a, { subscription: { endpoint: ENDPOINT, keys } })).body;
    const second = (await post(t, PATH, a, { subscription: { endpoint: `${ENDPOINT}/2`, keys, standard: true } })).body;
    expect(second.id).toBeGreaterThan(first.id);
    expect((await get(t, PATH, a)).body).toMatchObject({ id: second.id, endpoint: `${ENDPOINT}/2`, standard: true });
    expect((await get(t, PATH, b)).status).toBe(404);
    const other = (await post(t, PATH, b, { subscription: { endpoint: `${ENDPOINT}/b`, keys } })).body;
    expect((await get(t, PATH, a)).body.id).toBe(second.id);
    expect((await get(t, PATH, b)).body.id).toBe(other.id);
  });

  test("PUT replaces the data only (alerts wholesale, policy) and is 404 without a subscription", async () => {
    const token = (await passwordToken(t, user.app, user.username, user.password)).access_token;
    expect((await call(t, "PUT", PATH, token, { data: { policy: "none" } })).status).toBe(404);
    const created = (await post(t, PATH, token, { subscription: { endpoint: ENDPOINT, keys, standard: true }, data: { alerts: { mention: true, follow: true }, policy: "followed" } })).body;
    const changed = await call(t, "PUT", PATH, token, { data: { alerts: { favourite: true }, policy: "follower" } });
    expect(changed.status).toBe(200);
    expect(missingKeys(changed.body, shapeKeys("PUT /api/v1/push/subscription"))).toEqual([]);
    expect(changed.body).toEqual({ ...created, alerts: { ...NONE, favourite: true }, policy: "follower" });
    // Parameters other than data are not read: the endpoint and keys stay.
    const ignored = await call(t, "PUT", PATH, token, { subscription: { endpoint: "https://elsewhere.example/" }, data: {} });
    expect(ignored.body).toEqual({ ...created, alerts: NONE, policy: "all" });
    expect((await call(t, "PUT", PATH, token, { data: { policy: "nobody" } })).status).toBe(422);
  });

  test("DELETE answers {} and removes it (again: still {})", async () => {
    const token = (await passwordToken(t, user.app, user.username, user.password)).access_token;
    await post(t, PATH, token, { subscription: { endpoint: ENDPOINT, keys } });
    for (let i = 0; i < 2; i++) {
      const res = await call(t, "DELETE", PATH, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await get(t, PATH, token)).status).toBe(404);
    }
  });
});

describe("the VAPID key", () => {
  test("the same key as apps' vapid_key (registration and verify_credentials) and the v2 instance's", async () => {
    expect(serverKey).toMatch(/^B[\w-]{86}$/);
    expect(Buffer.from(serverKey, "base64url")).toHaveLength(65);
    const registered = await post(t, "/api/v1/apps", undefined, { client_name: "push client", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read push" });
    expect(registered.body.vapid_key).toBe(serverKey);
    expect((await get(t, "/api/v1/apps/verify_credentials", user.token)).body.vapid_key).toBe(serverKey);
  });

  test("made on first start and kept: opening the data again gives the same pair", async () => {
    const dir = mkdtempSync(join(tmpdir(), "warren-vapid-"));
    try {
      const store = openStore(dir);
      const first = ensureVapidKeys(store);
      await store.close();
      const reopened = openStore(dir);
      expect(ensureVapidKeys(reopened)).toEqual(first);
      await reopened.close();
      expect(Buffer.from(first.privateKey, "base64url")).toHaveLength(32);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an instance that allows private addresses (tests, closed networks) accepts http endpoints on them", async () => {
    const open = await startTestApp({ WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    try {
      const someone = await signedInUser(open, "local");
      const res = await post(open, PATH, someone.token, { subscription: { endpoint: "http://127.0.0.1:9/push", keys } });
      expect(res.status).toBe(200);
      expect(res.body.endpoint).toBe("http://127.0.0.1:9/push");
      expect(res.body.server_key).not.toBe(serverKey);
    } finally {
      await open.close();
    }
  });
});
