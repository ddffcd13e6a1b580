// The admin reports API through HTTP: Admin::Report with every reference key, the list (unresolved by
// default, resolved=true, account_id, target_account_id, paging with Link headers that keep the filters),
// one report, PUT category and rules, assign/unassign, resolve/reopen; and the permission matrix: every
// endpoint for Owner, Admin, Moderator, a plain user and a staff token without the admin scope.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { resolveReportsInWrite } from "../../src/domain/reports/admin.ts";
import { admin, newUser, postStatus, reported, serverRule, staffUser, withField, type User } from "./reports-helpers.ts";

let t: TestApp;
let moderator: User;

beforeAll(async () => {
  t = await startTestApp();
  moderator = await staffUser(t, "Moderator");
});
afterAll(() => t.close());

/** A fresh reporter and reported account, and a report between them. */
async function freshReport(body: Record<string, unknown> = {}) {
  const [reporter, target] = [await newUser(t, "ar"), await newUser(t, "at")];
  const report = await reported(t, reporter, { account_id: target.id, ...body });
  return { reporter, target, report };
}

const ok = async (method: string, path: string, token = moderator.token, json?: unknown) => {
  const res = await admin(t, method, path, token, json);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

describe("Admin::Report", () => {
  test("every reference key, with the accounts, statuses and rules of the report", async () => {
    const reporter = await withField(t, await newUser(t, "ar"));
    const target = await withField(t, await newUser(t, "at"));
    const status = await postStatus(t, target, "look at this https://example.com #tag");
    const rule = await serverRule(t, "No spam, please");
    const report = await reported(t, reporter, { account_id: target.id, status_ids: [status.id], rule_ids: [rule], comment: "spam" });

    const one = (await ok("GET", `/${report.id}`)).body;
    expect(missingKeys(one, referenceKeys("GET /api/v1/admin/reports/1"))).toEqual([]);
    expect(one).toMatchObject({
      id: report.id,
      action_taken: false,
      action_taken_at: null,
      category: "violation",
      comment: "spam",
      forwarded: false,
      created_at: report.created_at,
      assigned_account: null,
      action_taken_by_account: null,
    });
    expect(one.account).toMatchObject({
      id: reporter.id, username: reporter.username, domain: null, email: reporter.email, confirmed: true, approved: true,
      disabled: false, silenced: false, suspended: false, sensitized: false, ip: "127.0.0.1", ips: [{ ip: "127.0.0.1", used_at: expect.any(String) }],
    });
    expect(one.account.role).toMatchObject({ name: "", permissions: expect.any(String) });
    expect(one.account.account.id).toBe(reporter.id);
    expect(one.target_account.id).toBe(target.id);
    expect(one.statuses.map((s: any) => s.id)).toEqual([status.id]);
    expect(one.statuses[0].account.id).toBe(target.id);
    expect(one.rules).toEqual([{ id: rule, text: "No spam, please", hint: "", translations: {} }]);
    expect(Date.parse(one.updated_at)).toBeGreaterThanOrEqual(Date.parse(one.created_at));

    const listed = (await ok("GET", `?target_account_id=${target.id}`)).body;
    expect(listed).toEqual([one]);
    expect(missingKeys(listed, referenceKeys("GET /api/v1/admin/reports"))).toEqual([]);

    const assigned = (await ok("POST", `/${report.id}/assign_to_self`)).body;
    expect(missingKeys(assigned, referenceKeys("POST /api/v1/admin/reports/1/assign_to_self"))).toEqual([]);
    expect(assigned.assigned_account.id).toBe(moderator.id);
    expect(assigned.assigned_account.role.name).toBe("Moderator");
    const resolved = (await ok("POST", `/${report.id}/resolve`)).body;
    expect(missingKeys(resolved, referenceKeys("POST /api/v1/admin/reports/1/resolve"))).toEqual([]);
    for (const action of ["unassign", "reopen"]) {
      const body = (await ok("POST", `/${report.id}/${action}`)).body;
      expect(missingKeys(body, referenceKeys(`POST /api/v1/admin/reports/1/${action}`))).toEqual([]);
    }
  });

  test("unknown ids are 404", async () => {
    for (const [method, path] of [["GET", "/99999"], ["GET", "/abc"], ["PUT", "/99999"], ["POST", "/99999/resolve"], ["POST", "/99999/assign_to_self"]]) {
      const res = await admin(t, method!, path!, moderator.token, method === "PUT" ? { category: "spam" } : undefined);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });
});

describe("handling a report", () => {
  test("assign to self and unassign; resolve records who and when, reopen clears both", async () => {
    const { report } = await freshReport();
    const other = await staffUser(t, "Admin");
    expect((await ok("POST", `/${report.id}/assign_to_self`)).body.assigned_account.id).toBe(moderator.id);
    // Another moderator takes it over.
    expect((await ok("POST", `/${report.id}/assign_to_self`, other.token)).body.assigned_account.id).toBe(other.id);
    expect((await ok("GET", `/${report.id}`)).body.assigned_account.id).toBe(other.id);
    expect((await ok("POST", `/${report.id}/unassign`)).body.assigned_account).toBeNull();

    const before = Date.now();
    const resolved = (await ok("POST", `/${report.id}/resolve`, other.token)).body;
    expect(resolved.action_taken).toBe(true);
    expect(Date.parse(resolved.action_taken_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(resolved.action_taken_by_account.id).toBe(other.id);
    expect(Date.parse(resolved.updated_at)).toBeGreaterThanOrEqual(Date.parse(resolved.created_at));

    const reopened = (await ok("POST", `/${report.id}/reopen`)).body;
    expect(reopened).toMatchObject({ action_taken: false, action_taken_at: null, action_taken_by_account: null });
  });

  test("PUT changes the category and the rules; unknown ones are 422 and change nothing", async () => {
    const { report } = await freshReport({ category: "spam" });
    const [r1, r2] = [await serverRule(t, "Rule one"), await serverRule(t, "Rule two")];
    const changed = (await ok("PUT", `/${report.id}`, moderator.token, { category: "violation", rule_ids: [r1, r2] })).body;
    expect(changed.category).toBe("violation");
    expect(changed.rules.map((r: any) => r.id)).toEqual([r1, r2]);
    expect((await ok("PUT", `/${report.id}`, moderator.token, { category: "legal" })).body).toMatchObject({ category: "legal" });
    // Nothing given: nothing changes.
    expect((await ok("PUT", `/${report.id}`, moderator.token, {})).body.category).toBe("legal");

    const badCategory = await admin(t, "PUT", `/${report.id}`, moderator.token, { category: "nonsense" });
    expect(badCategory.status).toBe(422);
    const badRule = await admin(t, "PUT", `/${report.id}`, moderator.token, { category: "spam", rule_ids: ["424242"] });
    expect(badRule.status).toBe(422);
    expect(badRule.body.error).toBe("Validation failed: Rule ids does not reference valid rules");
    const after = (await ok("GET", `/${report.id}`)).body;
    expect(after.category).toBe("legal");
    expect(after.rules.map((r: any) => r.id)).toEqual([r1, r2]);

    // Form-encoded rule_ids[] alone replaces the rules.
    const form = await t.request(`/api/v1/admin/reports/${report.id}`, {
      method: "PUT",
      token: moderator.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([["rule_ids[]", r2]]).toString(),
    });
    expect(form.status).toBe(200);
    expect(((await form.json()) as any).rules.map((r: any) => r.id)).toEqual([r2]);
  });
});

describe("resolving from an account action (the core the admin accounts API calls inside its write)", () => {
  test("the report named, or every open report about the account; resolved ones keep who resolved them", async () => {
    const { reporter, target, report: a } = await freshReport();
    const b = await reported(t, reporter, { account_id: target.id, comment: "b" });
    const c = await reported(t, reporter, { account_id: target.id, comment: "c" });
    const elsewhere = (await freshReport()).report;
    const other = await staffUser(t, "Admin");
    await ok("POST", `/${a.id}/resolve`, other.token);
    const internal = (id: string) => id.padStart(18, "0");
    const store = t.deps.store;

    const named = await store.write(() => resolveReportsInWrite(store, internal(target.id), [internal(b.id)], internal(moderator.id), Date.now()));
    expect(named.map((r) => r.id.replace(/^0+/, ""))).toEqual([b.id]);
    expect((await ok("GET", `/${c.id}`)).body.action_taken).toBe(false);

    const all = await store.write(() => resolveReportsInWrite(store, internal(target.id), null, internal(moderator.id), Date.now()));
    expect(all.map((r) => r.id.replace(/^0+/, ""))).toEqual([c.id]);
    const byWhom = async (id: string) => (await ok("GET", `/${id}`)).body.action_taken_by_account?.id ?? null;
    expect([await byWhom(a.id), await byWhom(b.id), await byWhom(c.id)]).toEqual([other.id, moderator.id, moderator.id]);
    expect(await byWhom(elsewhere.id)).toBeNull();
    expect((await ok("GET", `?target_account_id=${target.id}`)).body).toEqual([]);
  });
});

describe("listing reports", () => {
  test("unresolved by default, resolved=true for the resolved ones; by reporter and by reported account", async () => {
    const { reporter, target, report: a } = await freshReport();
    const b = await reported(t, reporter, { account_id: target.id, comment: "again" });
    const c = (await freshReport()).report;
    await ok("POST", `/${b.id}/resolve`);
    const ids = async (query: string) => (await ok("GET", query)).body.map((r: any) => r.id);

    const open = await ids("");
    expect(open).toContain(a.id);
    expect(open).toContain(c.id);
    expect(open).not.toContain(b.id);
    expect(open.indexOf(c.id)).toBeLessThan(open.indexOf(a.id)); // newest first
    const closed = await ids("?resolved=true");
    expect(closed).toContain(b.id);
    expect(closed).not.toContain(a.id);
    expect(await ids("?resolved=false")).toEqual(open);

    expect(await ids(`?account_id=${reporter.id}`)).toEqual([a.id]);
    expect(await ids(`?account_id=${reporter.id}&resolved=true`)).toEqual([b.id]);
    expect(await ids(`?target_account_id=${target.id}`)).toEqual([a.id]);
    expect(await ids(`?target_account_id=${target.id}&account_id=${reporter.id}&resolved=true`)).toEqual([b.id]);
    expect(await ids(`?target_account_id=${reporter.id}`)).toEqual([]);
    expect(await ids("?account_id=nobody")).toEqual([]);
  });

  test("pages newest first with Link headers that keep the filters; limit 100 by default, at most 200", async () => {
    const [reporter, target] = [await newUser(t, "pr"), await newUser(t, "pt")];
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await reported(t, reporter, { account_id: target.id, comment: `#${i}` })).id);
    const newestFirst = [...made].reverse();

    const first = await ok("GET", `?account_id=${reporter.id}&limit=2`);
    expect(first.body.map((r: any) => r.id)).toEqual(newestFirst.slice(0, 2));
    const link = first.headers.get("link")!;
    expect(link).toContain(`rel="next"`);
    expect(link).toContain(`rel="prev"`);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    const prev = /<([^>]+)>; rel="prev"/.exec(link)![1]!;
    expect(new URL(next).searchParams.get("account_id")).toBe(reporter.id);
    expect(new URL(next).searchParams.get("max_id")).toBe(newestFirst[1]!);
    expect(new URL(prev).searchParams.get("min_id")).toBe(newestFirst[0]!);

    const second = await ok("GET", new URL(next).pathname.replace("/api/v1/admin/reports", "") + new URL(next).search);
    expect(second.body.map((r: any) => r.id)).toEqual(newestFirst.slice(2, 4));
    const third = await ok("GET", `?account_id=${reporter.id}&limit=2&max_id=${newestFirst[3]}`);
    expect(third.body.map((r: any) => r.id)).toEqual(newestFirst.slice(4));
    expect(third.headers.get("link")).not.toContain(`rel="next"`);
    const newer = await ok("GET", `?account_id=${reporter.id}&limit=2&min_id=${newestFirst[2]}`);
    expect(newer.body.map((r: any) => r.id)).toEqual(newestFirst.slice(0, 2));
  });

  test("the default page is 100 reports and limit is clamped to 200", async () => {
    const reporter = await newUser(t, "many");
    const target = await newUser(t, "manyt");
    for (let i = 0; i < 201; i++) await reported(t, reporter, { account_id: target.id });
    expect((await ok("GET", `?account_id=${reporter.id}`)).body.length).toBe(100);
    expect((await ok("GET", `?account_id=${reporter.id}&limit=150`)).body.length).toBe(150);
    expect((await ok("GET", `?account_id=${reporter.id}&limit=500`)).body.length).toBe(200);
  });
});

describe("permissions", () => {
  test("every endpoint × role and scope: staff with the admin scope 2xx, everyone else 403", async () => {
    const { report } = await freshReport();
    const actors: [string, User, boolean][] = [
      ["Owner", await staffUser(t, "Owner"), true],
      ["Admin", await staffUser(t, "Admin"), true],
      ["Moderator", await staffUser(t, "Moderator"), true],
      ["User", await staffUser(t, "User"), false],
      ["Admin without admin scopes", await staffUser(t, "Admin", "read write"), false],
    ];
    const endpoints: [string, string, unknown?][] = [
      ["GET", ""],
      ["GET", `/${report.id}`],
      ["PUT", `/${report.id}`, { category: "spam" }],
      ["POST", `/${report.id}/assign_to_self`],
      ["POST", `/${report.id}/unassign`],
      ["POST", `/${report.id}/resolve`],
      ["POST", `/${report.id}/reopen`],
    ];
    const seen: string[] = [];
    for (const [name, actor, allowed] of actors) {
      for (const [method, path, body] of endpoints) {
        const res = await admin(t, method, path, actor.token, body);
        seen.push(`${name} ${method} ${path.replace(report.id, ":id")} ${res.status}`);
        if (allowed) expect(res.status).toBe(200);
        else {
          expect(res.status).toBe(403);
          expect(res.body.error).toBeString();
        }
      }
    }
    expect(seen.length).toBe(actors.length * endpoints.length);
    // No token at all: 401.
    expect((await admin(t, "GET", "", "")).status).toBe(401);
  });

  test("the narrow scopes: admin:read:reports reads only, admin:write:reports writes only", async () => {
    const { report } = await freshReport();
    const reader = await staffUser(t, "Moderator", "admin:read:reports");
    const writer = await staffUser(t, "Moderator", "admin:write:reports");
    expect((await admin(t, "GET", `/${report.id}`, reader.token)).status).toBe(200);
    expect((await admin(t, "GET", "", reader.token)).status).toBe(200);
    expect((await admin(t, "POST", `/${report.id}/resolve`, reader.token)).status).toBe(403);
    expect((await admin(t, "GET", `/${report.id}`, writer.token)).status).toBe(403);
    expect((await admin(t, "POST", `/${report.id}/resolve`, writer.token)).status).toBe(200);
    expect((await admin(t, "PUT", `/${report.id}`, writer.token, { category: "spam" })).status).toBe(200);
  });
});
