// The admin accounts API: the v2 and v1 lists with their filters and paging, one account, approve/reject,
// enable, the action endpoint (every type, its rules, its e-mail) and the un-actions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { outboxDir } from "../../src/mail/mailer.ts";
import { api, names, staffUser, type Staffer } from "./admin-helpers.ts";
import { idOf, newUser, postStatus, remoteAccount, type User } from "./timelines-helpers.ts";

let t: TestApp;
let owner: Staffer;
let admin: Staffer;
let mod: Staffer;
let alice: User;
let remoteId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await staffUser(t, "owner1", "Owner");
  admin = await staffUser(t, "admin1", "Admin");
  mod = await staffUser(t, "mod1", "Moderator");
  alice = await newUser(t, "alice");
  await api(t, "PATCH", "/api/v1/accounts/update_credentials", alice.token, { display_name: "Alice Liddell" });
  await api(t, "PATCH", "/api/v1/accounts/update_credentials", mod.token, { fields_attributes: { "0": { name: "site", value: "example.com" } } });
  remoteId = idOf(await remoteAccount(t, "faraway", "remote.example"));
  await createUser(t, "waiting", { approved: false });
});
afterAll(() => t.close());

const v2 = (query: string, token = admin.token) => api(t, "GET", `/api/v2/admin/accounts${query}`, token);
const v1 = (query: string, token = admin.token) => api(t, "GET", `/api/v1/admin/accounts${query}`, token);
const one = (id: string, token = admin.token) => api(t, "GET", `/api/v1/admin/accounts/${id}`, token);
const act = (id: string, body: unknown, token = admin.token) => api(t, "POST", `/api/v1/admin/accounts/${id}/action`, token, body);
const verb = (id: string, name: string, token = admin.token) => api(t, "POST", `/api/v1/admin/accounts/${id}/${name}`, token);

describe("the Admin::Account entity", () => {
  test("carries every key of Mastodon 4.6 (list v2, list v1, one account)", async () => {
    // Staff members: their accounts carry role badges (account.roles.*), as the reference's did.
    const list = await v2("?permissions=staff");
    expect(list.status).toBe(200);
    expect(missingKeys(list.body, referenceKeys("GET /api/v2/admin/accounts"))).toEqual([]);
    const withFields = await v1("?staff=1&username=mod1");
    expect(missingKeys(withFields.body, referenceKeys("GET /api/v1/admin/accounts"))).toEqual([]);
    const shown = await one(mod.id);
    const keys = referenceKeys("GET /api/v1/admin/accounts/:id").filter((k) => !["account.suspended", "account.limited"].includes(k));
    expect(missingKeys(shown.body, keys)).toEqual([]);
  });

  test("a local user: its user's facts and role", async () => {
    const { body } = await one(alice.id);
    expect(body).toMatchObject({
      id: alice.id,
      username: alice.username,
      domain: null,
      email: alice.email,
      // Signed in through app.handle: no socket, so loopback.
      ip: "127.0.0.1",
      ips: [{ ip: "127.0.0.1", used_at: expect.any(String) }],
      locale: "en",
      invite_request: null,
      role: { id: "-99", name: "", permissions: "65536", highlighted: false },
      confirmed: true,
      approved: true,
      disabled: false,
      sensitized: false,
      silenced: false,
      suspended: false,
      account: { id: alice.id, username: alice.username, display_name: "Alice Liddell" },
    });
    expect(new Date(body.created_at).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect((await one(admin.id)).body.role).toMatchObject({ id: "2", name: "Admin", highlighted: true });
  });

  test("a remote account: no user, so no e-mail, locale or role", async () => {
    const { status, body } = await one(remoteId);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: remoteId, username: "faraway", domain: "remote.example", email: null, locale: null, role: null, approved: false });
    expect(body.account.acct).toBe("faraway@remote.example");
  });

  test("unknown ids are 404", async () => {
    expect(await one("123456")).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await one("nope")).status).toBe(404);
  });
});

describe("GET /api/v2/admin/accounts", () => {
  test("origin and by_domain", async () => {
    const local = names(await v2("?origin=local"));
    expect(local).toEqual(expect.arrayContaining(["owner1", "admin1", "mod1", alice.username, "waiting"]));
    expect(local).not.toContain("faraway");
    expect(names(await v2("?origin=remote"))).toEqual(["faraway"]);
    expect(names(await v2("?by_domain=REMOTE.example"))).toEqual(["faraway"]);
    expect(names(await v2("?by_domain=elsewhere.example"))).toEqual([]);
    // No filter: local and remote, newest first.
    const all = await v2("");
    expect(names(all)).toContain("faraway");
    const ids = all.body.map((a: any) => BigInt(a.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
  });

  test("status: pending, active, and unknown values are 400", async () => {
    expect(names(await v2("?status=pending"))).toEqual(["waiting"]);
    expect(names(await v2("?status=active"))).toContain("waiting");
    expect(await v2("?status=bogus")).toMatchObject({ status: 400, body: { error: "Unknown status: bogus" } });
    expect(await v2("?origin=mars")).toMatchObject({ status: 400, body: { error: "Unknown origin: mars" } });
  });

  test("permissions=staff and role_ids[]", async () => {
    expect(names(await v2("?permissions=staff")).sort()).toEqual(["admin1", "mod1", "owner1"]);
    expect(names(await v2("?role_ids[]=2"))).toEqual(["admin1"]);
    expect(names(await v2("?role_ids[]=1&role_ids[]=3")).sort()).toEqual(["mod1", "owner1"]);
    // The everyone role is nobody's role id, as on Mastodon.
    expect(names(await v2("?role_ids[]=-99"))).toEqual([]);
  });

  test("username, display_name and email match from the start", async () => {
    expect(names(await v2(`?username=@${alice.username.slice(0, 3).toUpperCase()}`))).toEqual([alice.username]);
    expect(names(await v2("?username=lice"))).toEqual([]);
    expect(names(await v2("?display_name=alice lid"))).toEqual([alice.username]);
    expect(names(await v2("?display_name=Liddell"))).toEqual([]);
    expect(names(await v2("?email=admin1@"))).toEqual(["admin1"]);
    expect(names(await v2("?email=example.com"))).toEqual([]);
  });

  test("ip: the addresses users signed up and signed in from, exact or a CIDR range; invited_by matches nobody", async () => {
    // A sign-in from behind the (trusted, loopback) proxy: X-Forwarded-For names the client.
    const app = await createClientApp(t);
    const traveller = await createUser(t, "traveller");
    const grant = await t.request("/oauth/token", {
      method: "POST",
      headers: { "x-forwarded-for": "203.0.113.7" },
      form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "traveller", password: traveller.password, scope: "read" },
    });
    expect(grant.status).toBe(200);
    expect(names(await v2("?ip=203.0.113.7"))).toEqual(["traveller"]);
    expect(names(await v2("?ip=203.0.113.0/24"))).toEqual(["traveller"]);
    expect(names(await v2("?ip=198.51.100.1"))).toEqual([]);
    expect(names(await v2("?ip=not-an-ip"))).toEqual([]);
    const shown = await one(traveller.id);
    expect(shown.body.ip).toBe("203.0.113.7");
    expect(shown.body.ips.map((used: { ip: string }) => used.ip)).toEqual(["203.0.113.7"]);
    expect(names(await v2(`?invited_by=${owner.id}`))).toEqual([]);
  });

  test("paging: limit, Link next (max_id) and prev (min_id) carrying the filters", async () => {
    const first = await v2("?origin=local&limit=2");
    expect(first.body).toHaveLength(2);
    const link = first.headers.get("link")!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="prev"');
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next).toContain("origin=local");
    expect(next).toContain(`max_id=${first.body[1].id}`);
    const second = await api(t, "GET", next.replace("http://localhost:3000", ""), admin.token);
    expect(second.body).toHaveLength(2);
    expect(BigInt(second.body[0].id)).toBeLessThan(BigInt(first.body[1].id));
    const prev = /<([^>]+)>; rel="prev"/.exec(second.headers.get("link")!)![1]!;
    expect(prev).toContain(`min_id=${second.body[0].id}`);
    const back = await api(t, "GET", prev.replace("http://localhost:3000", ""), admin.token);
    expect(back.body.map((a: any) => a.id)).toEqual(first.body.map((a: any) => a.id));
    // A short last page has no next link.
    const all = await v2("?origin=local&limit=200");
    const last = await v2(`?origin=local&limit=200&max_id=${all.body[1].id}`);
    expect(last.headers.get("link")).not.toContain('rel="next"');
    expect((await v2("?limit=0")).body).toEqual([]);
  });
});

describe("GET /api/v1/admin/accounts (v1 flags)", () => {
  test("local and active by default; remote, pending and staff flags", async () => {
    const byDefault = names(await v1(""));
    expect(byDefault).toContain(alice.username);
    expect(byDefault).not.toContain("faraway");
    expect(names(await v1("?remote=true"))).toEqual(["faraway"]);
    expect(names(await v1("?pending=true"))).toEqual(["waiting"]);
    expect(names(await v1("?staff=1")).sort()).toEqual(["admin1", "mod1", "owner1"]);
    expect(names(await v1(`?username=${alice.username}`))).toEqual([alice.username]);
  });
});

describe("approve and reject", () => {
  test("approve a pending sign-up; again, or for an approved or remote account, is 403", async () => {
    const pending = await createUser(t, "newcomer", { approved: false });
    const approved = await verb(pending.id, "approve");
    expect(approved).toMatchObject({ status: 200, body: { id: pending.id, approved: true } });
    expect(await verb(pending.id, "approve")).toMatchObject({ status: 403, body: { error: "This action is not allowed" } });
    expect((await verb(alice.id, "approve")).status).toBe(403);
    expect((await verb(remoteId, "approve")).status).toBe(403);
    expect((await verb("999999", "approve")).status).toBe(404);
    expect(names(await v2("?status=pending"))).not.toContain("newcomer");
  });

  test("reject deletes the sign-up: the name and the address are free again", async () => {
    const pending = await createUser(t, "unwanted", { approved: false });
    expect(await verb(pending.id, "reject")).toMatchObject({ status: 200, body: {} });
    expect((await one(pending.id)).status).toBe(404);
    expect(names(await v2("?username=unwanted"))).toEqual([]);
    await createUser(t, "unwanted", { approved: false });
    expect((await verb(alice.id, "reject")).status).toBe(403);
    expect((await verb(remoteId, "reject")).status).toBe(403);
  });
});

describe("POST /api/v1/admin/accounts/:id/action", () => {
  test("type is required and must suit the account", async () => {
    const invalid = { status: 422, body: { error: "Validation failed: Type is not included in the list" } };
    expect(await act(alice.id, {})).toMatchObject(invalid);
    expect(await act(alice.id, { type: "ban" })).toMatchObject(invalid);
    expect(await act(remoteId, { type: "none" })).toMatchObject(invalid);
    expect(await act(remoteId, { type: "disable" })).toMatchObject(invalid);
    expect((await act("424242", { type: "silence" })).status).toBe(404);
    // There are no warning presets: naming one is an unknown record.
    expect((await act(alice.id, { type: "none", warning_preset_id: "1" })).status).toBe(404);
  });

  test("silence / unsilence: limited on the profile, silenced for the staff, listed as silenced", async () => {
    const bob = await newUser(t, "bob");
    expect(await act(bob.id, { type: "silence", send_email_notification: false })).toMatchObject({ status: 200, body: {} });
    expect((await api(t, "GET", `/api/v1/accounts/${bob.id}`, alice.token)).body.limited).toBe(true);
    expect((await one(bob.id)).body.silenced).toBe(true);
    expect(names(await v2("?status=silenced"))).toContain(bob.username);
    expect(await verb(bob.id, "unsilence")).toMatchObject({ status: 200, body: { silenced: false } });
    expect((await api(t, "GET", `/api/v1/accounts/${bob.id}`, alice.token)).body.limited).toBeUndefined();
    // Unsilencing what is not silenced changes nothing.
    expect(await verb(bob.id, "unsilence")).toMatchObject({ status: 200, body: { silenced: false } });
  });

  test("sensitive / unsensitive: the author's statuses are sensitive for everyone else", async () => {
    const carol = await newUser(t, "carol");
    const status = await postStatus(t, carol, "look at this");
    expect(status.sensitive).toBe(false);
    expect((await act(carol.id, { type: "sensitive", send_email_notification: false })).status).toBe(200);
    expect((await one(carol.id)).body.sensitized).toBe(true);
    expect(names(await v2("?status=sensitized"))).toEqual([carol.username]);
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, alice.token)).body.sensitive).toBe(true);
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`)).body.sensitive).toBe(true);
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, carol.token)).body.sensitive).toBe(false);
    expect(await verb(carol.id, "unsensitive")).toMatchObject({ status: 200, body: { sensitized: false } });
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, alice.token)).body.sensitive).toBe(false);
  });

  test("disable / enable: the login stops working and comes back", async () => {
    const dave = await newUser(t, "dave");
    expect((await act(dave.id, { type: "disable", send_email_notification: false })).status).toBe(200);
    expect((await one(dave.id)).body.disabled).toBe(true);
    expect(names(await v2("?status=disabled"))).toEqual([dave.username]);
    expect(await api(t, "GET", "/api/v1/accounts/verify_credentials", dave.token)).toMatchObject({
      status: 403,
      body: { error: "Your login is currently disabled" },
    });
    const signIn = await t.request("/oauth/token", {
      method: "POST",
      form: { grant_type: "password", client_id: dave.app.client_id, client_secret: dave.app.client_secret, username: dave.username, password: dave.password },
    });
    expect(signIn.status).not.toBe(200);
    expect(await verb(dave.id, "enable")).toMatchObject({ status: 200, body: { disabled: false } });
    expect((await api(t, "GET", "/api/v1/accounts/verify_credentials", dave.token)).status).toBe(200);
    expect((await verb(remoteId, "enable")).status).toBe(403);
  });

  test("suspend / unsuspend: gone for others and locked out, then back as it was", async () => {
    const erin = await newUser(t, "erin");
    const status = await postStatus(t, erin, "still here?");
    expect((await act(erin.id, { type: "suspend", send_email_notification: false })).status).toBe(200);
    expect((await one(erin.id)).body).toMatchObject({ suspended: true, account: { suspended: true, display_name: "" } });
    expect(names(await v2("?status=suspended"))).toContain(erin.username);
    expect(names(await v2("?status=active"))).not.toContain(erin.username);
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(404);
    expect((await api(t, "GET", "/api/v1/accounts/verify_credentials", erin.token)).status).toBe(403);
    expect(await verb(erin.id, "unsuspend")).toMatchObject({ status: 200, body: { suspended: false } });
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(200);
    expect((await api(t, "GET", "/api/v1/accounts/verify_credentials", erin.token)).status).toBe(200);
    // Only a suspended account can be unsuspended.
    expect((await verb(erin.id, "unsuspend")).status).toBe(403);
  });

  test("staff act only on accounts below their role, never on their own", async () => {
    const target = await staffUser(t, "mod2", "Moderator");
    expect((await act(target.id, { type: "silence", send_email_notification: false }, mod.token)).status).toBe(403);
    expect((await act(admin.id, { type: "suspend", send_email_notification: false }, mod.token)).status).toBe(403);
    expect((await act(owner.id, { type: "suspend", send_email_notification: false }, admin.token)).status).toBe(403);
    expect((await act(admin.id, { type: "disable", send_email_notification: false }, admin.token)).status).toBe(403);
    expect((await act(target.id, { type: "none", send_email_notification: false }, admin.token)).status).toBe(200);
    expect((await act(target.id, { type: "silence", send_email_notification: false }, owner.token)).status).toBe(200);
    // Remote accounts have no role: any moderator may act on them.
    expect((await act(remoteId, { type: "silence" }, mod.token)).status).toBe(200);
    expect((await verb(remoteId, "unsilence", mod.token)).status).toBe(200);
  });

  test("the owner of a local account is mailed the warning, with the staff's words", async () => {
    const frank = await newUser(t, "frank");
    expect((await act(frank.id, { type: "none", text: "Please keep it civil.\n\nThank you." })).status).toBe(200);
    expect((await act(frank.id, { type: "silence", send_email_notification: "false" })).status).toBe(200);
    await t.deps.jobs.drain();
    const dir = outboxDir(t.deps.config);
    const mails = existsSync(dir) ? readdirSync(dir).map((file) => readFileSync(join(dir, file), "utf8")) : [];
    const toFrank = mails.filter((mail) => mail.includes(`To: ${frank.email}`));
    expect(toFrank).toHaveLength(1);
    expect(toFrank[0]).toContain("Subject: A warning for @frank");
    expect(toFrank[0]).toContain("Please keep it civil.");
  });
});

describe("the action and reports", () => {
  const report = async (reporter: User, target: string) => {
    const res = await api(t, "POST", "/api/v1/reports", reporter.token, { account_id: target, comment: "spam" });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  const resolved = async (id: string) => (await api(t, "GET", `/api/v1/admin/reports/${id}`, admin.token)).body.action_taken;

  test("report_id must name a report", async () => {
    expect((await act(alice.id, { type: "none", report_id: "987654321" })).status).toBe(404);
  });

  test("none resolves the report named; any other action every open report about the account", async () => {
    const gina = await newUser(t, "gina");
    const first = await report(alice, gina.id);
    const second = await report(owner as unknown as User, gina.id);
    expect((await act(gina.id, { type: "none", report_id: first, send_email_notification: false })).status).toBe(200);
    expect(await resolved(first)).toBe(true);
    expect(await resolved(second)).toBe(false);
    const third = await report(alice, gina.id);
    expect((await act(gina.id, { type: "silence", send_email_notification: false })).status).toBe(200);
    expect(await resolved(second)).toBe(true);
    expect(await resolved(third)).toBe(true);
    const byWhom = (await api(t, "GET", `/api/v1/admin/reports/${third}`, admin.token)).body.action_taken_by_account;
    expect(byWhom.id).toBe(admin.id);
  });
});
