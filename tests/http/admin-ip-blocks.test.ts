// Admin IP blocks (create, normalise networks, change, lift, expiry) and what they do: sign-ups from a network
// held for approval or refused, every request from a `no_access` network refused; who may manage them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { ipBlockSeverityFor } from "../../src/domain/admin/ip-blocks.ts";
import { api, staffUser, type Staffer } from "./admin-helpers.ts";

let t: TestApp;
let admin: Staffer;
let signUpToken: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  admin = await staffUser(t, "ipkeeper", "Admin");
  signUpToken = (await appToken(t, await createClientApp(t), "read write")).access_token;
});
afterAll(() => t.close());

const path = "/api/v1/admin/ip_blocks";
/** In-process requests come from loopback, so X-Forwarded-For names the client (plugins/rate-limits/client-ip.ts). */
const from = (address: string) => ({ "x-forwarded-for": address });
const signUp = (username: string, address: string) =>
  t.request("/api/v1/accounts", {
    method: "POST",
    token: signUpToken,
    headers: from(address),
    json: { username, email: `${username}@example.com`, password: "long enough pw", agreement: true, locale: "en" },
  });

describe("IP blocks", () => {
  test("create (the network masked), show, change, list, lift; bad input is 422", async () => {
    const created = await api(t, "POST", path, admin.token, { ip: "192.0.2.77/24", severity: "sign_up_requires_approval", comment: "spam wave" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ip: "192.0.2.0/24", severity: "sign_up_requires_approval", comment: "spam wave", expires_at: null });
    expect(missingKeys(created.body, referenceKeys("GET /api/v1/admin/ip_blocks/1"))).toEqual([]);
    expect((await api(t, "POST", path, admin.token, { ip: "192.0.2.1/24", severity: "no_access" })).status).toBe(422);
    expect((await api(t, "POST", path, admin.token, { ip: "nonsense", severity: "no_access" })).status).toBe(422);
    expect((await api(t, "POST", path, admin.token, { ip: "192.0.2.9", severity: "everything" })).status).toBe(422);
    const changed = await api(t, "PUT", `${path}/${created.body.id}`, admin.token, { comment: "calmer now", expires_in: "3600" });
    expect(changed.body).toMatchObject({ ip: "192.0.2.0/24", comment: "calmer now" });
    expect(Date.parse(changed.body.expires_at) - Date.now()).toBeGreaterThan(3500_000);
    expect((await api(t, "GET", path, admin.token)).body.map((b: any) => b.id)).toEqual([created.body.id]);
    expect((await api(t, "DELETE", `${path}/${created.body.id}`, admin.token)).status).toBe(200);
    expect((await api(t, "GET", `${path}/${created.body.id}`, admin.token)).status).toBe(404);
  });

  test("sign-ups: held for approval, or refused; other networks and expired blocks are not affected", async () => {
    const held = await api(t, "POST", path, admin.token, { ip: "198.51.100.0/24", severity: "sign_up_requires_approval" });
    const blocked = await api(t, "POST", path, admin.token, { ip: "2001:db8::/32", severity: "sign_up_block" });
    await api(t, "POST", path, admin.token, { ip: "203.0.113.5", severity: "sign_up_block", expires_in: "1" });
    expect((await signUp("heldback", "198.51.100.20")).status).toBe(200);
    const account = (await api(t, "GET", "/api/v1/admin/accounts?pending=true", admin.token)).body;
    expect(account.map((a: any) => a.username)).toContain("heldback");
    const refused = await signUp("shutout", "2001:db8:1::5");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "This action is not allowed" });
    // A block with an end applies until then (the check asked with a later clock, rather than waiting).
    expect((await signUp("notyet", "203.0.113.5")).status).toBe(403);
    expect(ipBlockSeverityFor(t.deps.store, "203.0.113.5", Date.now() + 1_500)).toBeNull();
    expect((await signUp("elsewhere", "203.0.113.6")).status).toBe(200);
    for (const b of [held.body, blocked.body]) await api(t, "DELETE", `${path}/${b.id}`, admin.token);
  });

  test("no_access: every request from the network is refused, others are served", async () => {
    const block = await api(t, "POST", path, admin.token, { ip: "192.0.2.128/25", severity: "no_access" });
    const blockedAnswer = await t.request("/api/v2/instance", { headers: from("192.0.2.200") });
    expect(blockedAnswer.status).toBe(403);
    expect((await t.request("/api/v2/instance", { headers: from("192.0.2.100") })).status).toBe(200);
    // ActivityPub requests too, before Fedify reads them (it would answer an unsigned inbox POST 401, the actor 200).
    const inbox = await t.request("/inbox", { method: "POST", headers: { ...from("192.0.2.200"), "content-type": "application/activity+json" }, body: "{}" });
    expect({ status: inbox.status, body: await inbox.json() }).toEqual({ status: 403, body: { error: "This action is not allowed" } });
    const actor = await t.request(`/users/${admin.username}`, { headers: { ...from("192.0.2.200"), accept: "application/activity+json" } });
    expect(actor.status).toBe(403);
    expect((await t.request(`/users/${admin.username}`, { headers: { ...from("192.0.2.100"), accept: "application/activity+json" } })).status).toBe(200);
    await api(t, "DELETE", `${path}/${block.body.id}`, admin.token);
    expect((await t.request("/api/v2/instance", { headers: from("192.0.2.200") })).status).toBe(200);
  });

  test("manage_blocks and the scopes", async () => {
    const moderator = await staffUser(t, "ipmod", "Moderator");
    expect((await api(t, "GET", path, moderator.token)).status).toBe(403);
    const narrow = await staffUser(t, "ipnarrow", "Admin", "admin:read:accounts");
    expect((await api(t, "GET", path, narrow.token)).status).toBe(403);
    expect((await api(t, "GET", path)).status).toBe(401);
  });
});
