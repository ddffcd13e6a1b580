// Admin canonical e-mail blocks (create by address or hash, test, list, show, lift) and sign-up, which refuses a
// blocked address and its variants with dots or a +tag as "has already been taken"; who may manage them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { api, staffUser, type Staffer } from "./admin-helpers.ts";

let t: TestApp;
let admin: Staffer;
let signUpToken: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  admin = await staffUser(t, "keeper", "Admin");
  signUpToken = (await appToken(t, await createClientApp(t), "read write")).access_token;
});
afterAll(() => t.close());

const path = "/api/v1/admin/canonical_email_blocks";
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const signUp = (username: string, email: string) =>
  api(t, "POST", "/api/v1/accounts", signUpToken, { username, email, password: "long enough pw", agreement: true, locale: "en" });

describe("canonical e-mail blocks", () => {
  test("an address is blocked in its canonical form: sign-ups with it, dotted or +tagged, are refused", async () => {
    const created = await api(t, "POST", path, admin.token, { email: "John.Smith+spam@Example.com" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: created.body.id, canonical_email_hash: sha("johnsmith@example.com") });
    expect(missingKeys(created.body, referenceKeys("GET /api/v1/admin/canonical_email_blocks/3"))).toEqual([]);
    for (const [name, email] of [["jsmith1", "johnsmith@example.com"], ["jsmith2", "j.o.h.n.smith+again@example.com"]] as const) {
      const refused = await signUp(name, email);
      expect(refused.status).toBe(422);
      expect(refused.body.details.email).toEqual([{ error: "ERR_TAKEN", description: "has already been taken" }]);
    }
    expect((await signUp("jsmith3", "johnsmith@example.org")).status).toBe(200);
    const tested = await api(t, "POST", `${path}/test`, admin.token, { email: "johnsmith+x@example.com" });
    expect(tested).toMatchObject({ status: 200, body: [created.body] });
    expect((await api(t, "POST", `${path}/test`, admin.token, { email: "other@example.com" })).body).toEqual([]);
  });

  test("by hash; duplicates, blanks and bad hashes are 422; list, show and lift", async () => {
    const hash = sha("someone@example.net");
    const created = await api(t, "POST", path, admin.token, { canonical_email_hash: hash });
    expect(created.body.canonical_email_hash).toBe(hash);
    expect((await api(t, "POST", path, admin.token, { canonical_email_hash: hash })).status).toBe(422);
    expect((await api(t, "POST", path, admin.token, {})).body).toEqual({ error: "Validation failed: Canonical email hash can't be blank" });
    expect((await api(t, "POST", path, admin.token, { canonical_email_hash: "nope" })).status).toBe(422);
    const listed = await api(t, "GET", path, admin.token);
    expect(listed.body[0]).toEqual(created.body);
    expect((await api(t, "GET", `${path}/${created.body.id}`, admin.token)).body).toEqual(created.body);
    expect((await api(t, "DELETE", `${path}/${created.body.id}`, admin.token)).status).toBe(200);
    expect((await api(t, "GET", `${path}/${created.body.id}`, admin.token)).status).toBe(404);
    expect((await signUp("someone", "someone@example.net")).status).toBe(200);
  });

  test("manage_blocks and the scopes: a moderator is refused, a token without the scope too", async () => {
    const moderator = await staffUser(t, "modest", "Moderator");
    expect((await api(t, "GET", path, moderator.token)).status).toBe(403);
    const narrow = await staffUser(t, "narrow", "Admin", "admin:read:accounts");
    expect((await api(t, "GET", path, narrow.token)).status).toBe(403);
    expect((await api(t, "GET", path)).status).toBe(401);
  });
});
