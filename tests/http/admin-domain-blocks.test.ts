// Admin domain blocks (create, normalise, cover subdomains, change, lift, page) and e-mail domain blocks,
// which sign-up obeys: refused, or held for approval, with the attempts counted in the block's history.
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
  admin = await staffUser(t, "boss", "Admin");
  signUpToken = (await appToken(t, await createClientApp(t), "read write")).access_token;
});
afterAll(() => t.close());

const blocks = "/api/v1/admin/domain_blocks";
const emailBlocks = "/api/v1/admin/email_domain_blocks";
const create = (body: unknown) => api(t, "POST", blocks, admin.token, body);

describe("domain blocks", () => {
  test("create with defaults; the entity has every key, the digest is the domain's SHA-256", async () => {
    const created = await create({ domain: " Spam.EXAMPLE. " });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      domain: "spam.example",
      severity: "silence",
      reject_media: false,
      reject_reports: false,
      private_comment: null,
      public_comment: null,
      obfuscate: false,
      digest: createHash("sha256").update("spam.example").digest("hex"),
    });
    expect(missingKeys(created.body, referenceKeys("GET /api/v1/admin/domain_blocks/1"))).toEqual([]);
    const shown = await api(t, "GET", `${blocks}/${created.body.id}`, admin.token);
    expect(shown.body).toEqual(created.body);
    expect(missingKeys((await api(t, "GET", blocks, admin.token)).body, referenceKeys("GET /api/v1/admin/domain_blocks/"))).toEqual([]);
  });

  test("every field, form-encoded too; internationalised names are stored in ASCII", async () => {
    const res = await t.request(blocks, {
      method: "POST",
      token: admin.token,
      form: { domain: "bücher.example", severity: "suspend", reject_media: "true", reject_reports: "1", private_comment: "for us", public_comment: "spam", obfuscate: "true" },
    });
    expect(await res.json()).toMatchObject({
      domain: "xn--bcher-kva.example",
      severity: "suspend",
      reject_media: true,
      reject_reports: true,
      private_comment: "for us",
      public_comment: "spam",
      obfuscate: true,
    });
  });

  test("bad input is 422", async () => {
    expect(await create({})).toMatchObject({ status: 422, body: { error: "Validation failed: Domain can't be blank" } });
    expect(await create({ domain: "not a domain" })).toMatchObject({ status: 422, body: { error: "Validation failed: Domain is not a valid domain name" } });
    expect(await create({ domain: "x.example", severity: "ban" })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Severity is not included in the list" },
    });
    expect((await create({ domain: "x.example", obfuscate: "perhaps" })).status).toBe(422);
  });

  test("a block already covering the domain as strictly is 422, naming it; a stricter one under it is fine", async () => {
    const parent = (await create({ domain: "covered.example", severity: "silence", reject_media: true })).body;
    const again = await create({ domain: "COVERED.example", severity: "suspend" });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ error: "You have already imposed stricter limits on covered.example.", existing_domain_block: parent });
    expect((await create({ domain: "sub.covered.example", severity: "noop" })).body.existing_domain_block.id).toBe(parent.id);
    expect((await create({ domain: "sub.covered.example", severity: "silence" })).status).toBe(422);
    // As strict (Mastodon's stricter_than? counts equal) or stricter: a block of its own.
    expect((await create({ domain: "sub.covered.example", severity: "silence", reject_media: true })).status).toBe(200);
    expect((await create({ domain: "deeper.covered.example", severity: "suspend" })).status).toBe(200);
  });

  test("PUT changes the settings but not the domain; DELETE lifts the block", async () => {
    const block = (await create({ domain: "change.example" })).body;
    const changed = await api(t, "PUT", `${blocks}/${block.id}`, admin.token, { domain: "other.example", severity: "suspend", public_comment: "now worse" });
    expect(changed).toMatchObject({ status: 200, body: { id: block.id, domain: "change.example", severity: "suspend", public_comment: "now worse" } });
    expect((await api(t, "PUT", `${blocks}/${block.id}`, admin.token, { severity: "nope" })).status).toBe(422);
    expect((await api(t, "PUT", `${blocks}/99999`, admin.token, { severity: "noop" })).status).toBe(404);
    expect(await api(t, "DELETE", `${blocks}/${block.id}`, admin.token)).toMatchObject({ status: 200, body: {} });
    expect((await api(t, "GET", `${blocks}/${block.id}`, admin.token)).status).toBe(404);
    expect((await api(t, "DELETE", `${blocks}/${block.id}`, admin.token)).status).toBe(404);
    // Lifted: the domain can be blocked again.
    expect((await create({ domain: "change.example" })).status).toBe(200);
  });

  test("the list pages newest first with Link headers", async () => {
    for (const name of ["p1", "p2", "p3"]) await create({ domain: `${name}.paging.example` });
    const first = await api(t, "GET", `${blocks}?limit=2`, admin.token);
    expect(first.body.map((b: any) => b.domain)).toEqual(["p3.paging.example", "p2.paging.example"]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link")!)![1]!;
    const second = await api(t, "GET", next.replace("http://localhost:3000", ""), admin.token);
    expect(second.body[0].domain).toBe("p1.paging.example");
  });
});

function register(username: string, email: string) {
  return api(t, "POST", "/api/v1/accounts", signUpToken, { username, email, password: "correct horse", agreement: true });
}

describe("e-mail domain blocks", () => {
  test("create, show with its history, list, and 422 for a domain blocked already", async () => {
    const created = await api(t, "POST", emailBlocks, admin.token, { domain: "Junk.Example" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ domain: "junk.example", allow_with_approval: false });
    expect(created.body.history).toHaveLength(7);
    expect(created.body.history[0]).toEqual({ day: String(Math.floor(Date.now() / 86_400_000) * 86_400), accounts: "0", uses: "0" });
    expect(missingKeys(created.body, referenceKeys("GET /api/v1/admin/email_domain_blocks/1"))).toEqual([]);
    expect(await api(t, "POST", emailBlocks, admin.token, { domain: "junk.example" })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Domain has already been taken" },
    });
    expect((await api(t, "POST", emailBlocks, admin.token, {})).status).toBe(422);
    expect((await api(t, "GET", emailBlocks, admin.token)).body.map((b: any) => b.domain)).toContain("junk.example");
  });

  test("sign-up refuses addresses at a blocked domain and its subdomains, and counts the attempts", async () => {
    const block = (await api(t, "POST", emailBlocks, admin.token, { domain: "blocked-mail.example" })).body;
    const refused = await register("spammer", "spammer@blocked-mail.example");
    expect(refused.status).toBe(422);
    expect(refused.body.details.email).toEqual([{ error: "ERR_BLOCKED", description: "uses a disallowed e-mail provider" }]);
    expect((await register("spammer2", "x@mx.BLOCKED-MAIL.example")).status).toBe(422);
    expect((await register("spammer3", "spammer@blocked-mail.example")).status).toBe(422);
    const history = (await api(t, "GET", `${emailBlocks}/${block.id}`, admin.token)).body.history;
    expect(history[0]).toMatchObject({ uses: "3", accounts: "2" });
    // Other domains are fine, and lifting the block lets the address in.
    expect((await register("honest", "honest@good.example")).status).toBe(200);
    expect(await api(t, "DELETE", `${emailBlocks}/${block.id}`, admin.token)).toMatchObject({ status: 200, body: {} });
    expect((await api(t, "GET", `${emailBlocks}/${block.id}`, admin.token)).status).toBe(404);
    expect((await register("spammer", "spammer@blocked-mail.example")).status).toBe(200);
  });

  test("allow_with_approval holds the sign-up for approval instead", async () => {
    const block = await api(t, "POST", emailBlocks, admin.token, { domain: "doubtful.example", allow_with_approval: "true" });
    expect(block.body.allow_with_approval).toBe(true);
    const signedUp = await register("doubtful", "someone@doubtful.example");
    expect(signedUp.status).toBe(200);
    const me = await api(t, "GET", "/api/v1/accounts/verify_credentials", signedUp.body.access_token);
    expect(me).toMatchObject({ status: 403, body: { error: "Your login is currently pending approval" } });
    const pending = await api(t, "GET", "/api/v2/admin/accounts?status=pending", admin.token);
    expect(pending.body.map((a: any) => a.username)).toEqual(["doubtful"]);
  });
});
