// Admin domain allows: create (normalised; an allowed domain answered as it is), list, show, remove, and who
// may manage them. Warren has no limited federation mode: the instance says so, and the list changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { api, staffUser, type Staffer } from "./admin-helpers.ts";

let t: TestApp;
let admin: Staffer;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffUser(t, "gatekeeper", "Admin");
});
afterAll(() => t.close());

const path = "/api/v1/admin/domain_allows";

describe("domain allows", () => {
  test("create, repeat, list, show, remove", async () => {
    const created = await api(t, "POST", path, admin.token, { domain: " Friends.EXAMPLE. " });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: created.body.id, domain: "friends.example", created_at: expect.any(String) });
    expect((await api(t, "POST", path, admin.token, { domain: "friends.example" })).body).toEqual(created.body);
    const other = (await api(t, "POST", path, admin.token, { domain: "pals.example" })).body;
    expect((await api(t, "GET", path, admin.token)).body.map((a: any) => a.domain)).toEqual(["pals.example", "friends.example"]);
    expect((await api(t, "GET", `${path}/${other.id}`, admin.token)).body).toEqual(other);
    expect((await api(t, "DELETE", `${path}/${other.id}`, admin.token)).status).toBe(200);
    expect((await api(t, "GET", `${path}/${other.id}`, admin.token)).status).toBe(404);
    expect((await api(t, "GET", "/api/v2/instance")).body.configuration.limited_federation).toBe(false);
  });

  test("bad domains are 422; a moderator, a narrow token and no token are refused", async () => {
    expect((await api(t, "POST", path, admin.token, {})).body).toEqual({ error: "Validation failed: Domain can't be blank" });
    expect((await api(t, "POST", path, admin.token, { domain: "not a domain" })).status).toBe(422);
    const moderator = await staffUser(t, "modgate", "Moderator");
    expect((await api(t, "GET", path, moderator.token)).status).toBe(403);
    const narrow = await staffUser(t, "narrowgate", "Admin", "admin:read:domain_blocks");
    expect((await api(t, "GET", path, narrow.token)).status).toBe(403);
    expect((await api(t, "GET", path)).status).toBe(401);
  });
});
