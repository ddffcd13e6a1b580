// GET /api/v1/accounts/:id, GET /api/v1/accounts?id[]=…, GET /api/v1/accounts/lookup and the default images.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser, passwordToken, signedInUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";

let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: { id: string };
let unconfirmed: { id: string };

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "approval" });
  alice = await signedInUser(t, "alice", undefined, { role: "Moderator" });
  bob = await createUser(t, "bob");
  unconfirmed = await createUser(t, "unconfirmed", { confirmed: false });
  // An API sign-up while registrations need approval.
  const app = await createClientApp(t);
  const bearer = (await appToken(t, app, "write")).access_token;
  const res = await t.request("/api/v1/accounts", {
    method: "POST",
    token: bearer,
    form: { username: "pending", email: "pending@example.com", password: "pending secret", agreement: "1" },
  });
  expect(res.status).toBe(200);
  await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: alice.token,
    json: { fields_attributes: [{ name: "Home", value: "https://alice.example" }] },
  });
});
afterAll(() => t.close());

type Json = Record<string, any>;

describe("GET /api/v1/accounts/:id", () => {
  test("anonymous: the Account entity, publicly cacheable", async () => {
    const res = await t.request(`/api/v1/accounts/${alice.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=15");
    expect(res.headers.get("vary")).toBe("Authorization");
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ id: alice.id, username: "alice", acct: "alice", roles: [{ id: "1", name: "Moderator", color: "" }] });
    expect(body.feature_approval).toEqual({ automatic: ["public"], manual: [], current_user: "denied" });
    for (const absent of ["source", "role", "suspended", "limited", "memorial"]) expect(body).not.toHaveProperty(absent);
    expect(missingKeys(body, referenceKeys("GET /api/v1/accounts/:id"))).toEqual([]);
  });

  test("with a token: private, and the viewer's feature approval", async () => {
    const res = await t.request(`/api/v1/accounts/${bob.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as Json;
    expect(body.roles).toEqual([]);
    expect(body.feature_approval.current_user).toBe("automatic");
  });

  test("a token must be valid and scoped", async () => {
    expect((await t.request(`/api/v1/accounts/${bob.id}`, { token: "garbage" })).status).toBe(401);
    const app = await createClientApp(t);
    const wrong = (await passwordToken(t, app, "alice", "pw-alice-secret", "write:statuses")).access_token;
    const res = await t.request(`/api/v1/accounts/${bob.id}`, { token: wrong });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This action is outside the authorized scopes" });
  });

  test("unknown, malformed, unconfirmed and pending accounts are 404", async () => {
    for (const id of ["1", "abc", "99999999999999999999999999", "-5", unconfirmed.id]) {
      const res = await t.request(`/api/v1/accounts/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
    }
    expect((await t.request("/api/v1/accounts/lookup?acct=pending")).status).toBe(404);
  });
});

describe("GET /api/v1/accounts?id[]=", () => {
  test("keeps the order asked for, once each, dropping unknown and hidden ones", async () => {
    const res = await t.request(`/api/v1/accounts?id[]=${bob.id}&id[]=12345&id[]=${alice.id}&id[]=${bob.id}&id[]=${unconfirmed.id}&id[]=abc`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=15");
    const body = (await res.json()) as Json[];
    expect(body.map((a) => a.username)).toEqual(["bob", "alice"]);
  });

  test("a single id and no id", async () => {
    expect(((await (await t.request(`/api/v1/accounts?id=${bob.id}`)).json()) as Json[]).map((a) => a.id)).toEqual([bob.id]);
    expect(await (await t.request("/api/v1/accounts")).json()).toEqual([]);
  });

  test("at most 40 ids", async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id[]=${i + 1}`).join("&");
    expect((await t.request(`/api/v1/accounts?${ids(40)}`)).status).toBe(200);
    const res = await t.request(`/api/v1/accounts?${ids(41)}`);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Validation failed: too many ids requested (maximum is 40)" });
  });
});

describe("GET /api/v1/accounts/lookup", () => {
  test("finds local accounts by any spelling of their acct", async () => {
    for (const acct of ["bob", "@bob", "BOB", "bob@localhost:3000", "@bob@LOCALHOST:3000", "acct:bob@localhost:3000"]) {
      const res = await t.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).id).toBe(bob.id);
    }
  });

  test("carries every key of Mastodon 4.6's response", async () => {
    const body = await (await t.request("/api/v1/accounts/lookup?acct=alice")).json();
    expect(missingKeys(body, referenceKeys("GET /api/v1/accounts/lookup"))).toEqual([]);
  });

  test("unknown and remote accounts are 404 (never fetched)", async () => {
    for (const acct of ["nobody", "bob@remote.example", "bob@", "a@b@c", "unconfirmed"]) {
      const res = await t.request(`/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
    }
  });

  test("a missing or empty acct is 400", async () => {
    for (const query of ["", "?acct=", "?acct=%20"]) {
      const res = await t.request(`/api/v1/accounts/lookup${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "param is missing or the value is empty: acct" });
    }
  });
});

describe("default images", () => {
  test("avatar and header placeholders are PNGs", async () => {
    for (const path of ["/avatars/original/missing.png", "/headers/original/missing.png"]) {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("cache-control")).toStartWith("public");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });
});

describe("GET /api/v1/accounts/:id/identity_proofs (deprecated, as masto.js still calls it)", () => {
  test("an empty list for a known account, 404 for an unknown one, 401 without a token", async () => {
    const res = await t.request(`/api/v1/accounts/${bob.id}/identity_proofs`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect((await t.request("/api/v1/accounts/999999999/identity_proofs", { token: alice.token })).status).toBe(404);
    expect((await t.request(`/api/v1/accounts/${bob.id}/identity_proofs`)).status).toBe(401);
  });
});
