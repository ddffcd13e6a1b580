// POST /api/v1/reports through HTTP: the Report entity with every reference key, what may be reported (404
// for unknown or suspended accounts and for statuses the reporter cannot see or that are not the account's),
// category and rules, the comment limit, forward, scopes; and the admin.report notifications a report sends
// to staff (v1 and grouped v2, with the Report), on worker threads as in production.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { settle } from "../helpers/streaming.ts";
import { admin, fileReport, follow, get, newUser, postStatus, reported, serverRule, staffUser, withField, type User } from "./reports-helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

describe("filing a report", () => {
  test("answers the Report with every reference key, the category other by default and no rules", async () => {
    const [reporter, target] = [await newUser(t, "r"), await withField(t, await newUser(t, "r"))];
    const status = await postStatus(t, target, "something bad");
    const res = await fileReport(t, reporter, { account_id: target.id, status_ids: [status.id], comment: "please look" });
    expect(res.status).toBe(200);
    expect(missingKeys(res.body, referenceKeys("POST /api/v1/reports/"))).toEqual([]);
    expect(res.body).toMatchObject({
      action_taken: false,
      action_taken_at: null,
      category: "other",
      comment: "please look",
      forwarded: false,
      status_ids: [status.id],
      rule_ids: null,
      collection_ids: [],
    });
    expect(res.body.target_account.id).toBe(target.id);
    expect(res.body.target_account.acct).toBe(target.username);
    expect(Date.parse(res.body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.id).toMatch(/^\d+$/);
  });

  test("form-encoded with status_ids[] and rule_ids[]: rules make it a violation whatever the category", async () => {
    const [reporter, target] = [await newUser(t, "r"), await newUser(t, "r")];
    const [a, b] = [await postStatus(t, target, "one"), await postStatus(t, target, "two")];
    const [rule1, rule2] = [await serverRule(t, "Be kind"), await serverRule(t, "No spam")];
    const form = new URLSearchParams([
      ["account_id", target.id], ["status_ids[]", a.id], ["status_ids[]", b.id], ["status_ids[]", a.id],
      ["category", "spam"], ["rule_ids[]", rule1], ["rule_ids[]", rule2], ["forward", "true"],
    ]);
    const res = await t.request("/api/v1/reports", {
      method: "POST",
      token: reporter.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.category).toBe("violation");
    expect(body.rule_ids).toEqual([rule1, rule2]);
    expect(body.status_ids).toEqual([a.id, b.id]);
    // forward only means something for remote accounts
    expect(body.forwarded).toBe(false);
  });

  test("each category is kept; an unknown category or rule is 422", async () => {
    const [reporter, target] = [await newUser(t, "r"), await newUser(t, "r")];
    for (const category of ["spam", "legal", "violation", "other"]) {
      expect((await reported(t, reporter, { account_id: target.id, category })).category).toBe(category);
    }
    const bad = await fileReport(t, reporter, { account_id: target.id, category: "rude" });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toContain("Category");
    for (const ruleIds of [["99999"], ["not-a-rule"]]) {
      const res = await fileReport(t, reporter, { account_id: target.id, rule_ids: ruleIds });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("Validation failed: Rule ids does not reference valid rules");
    }
  });

  test("the comment holds 1,000 characters; one more is 422", async () => {
    const [reporter, target] = [await newUser(t, "r"), await newUser(t, "r")];
    const full = "é".repeat(1000);
    expect((await reported(t, reporter, { account_id: target.id, comment: full })).comment).toBe(full);
    const res = await fileReport(t, reporter, { account_id: target.id, comment: full + "x" });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("Validation failed: Comment is too long (maximum is 1000 characters)");
  });

  test("missing, unknown and suspended accounts are 404", async () => {
    const [reporter, gone] = [await newUser(t, "r"), await newUser(t, "r")];
    await suspendAccount(t, gone.id);
    for (const body of [{}, { account_id: "123456789" }, { account_id: "nope" }, { account_id: gone.id }]) {
      const res = await fileReport(t, reporter, body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });

  test("statuses must be the account's and visible to the reporter, else 404 and nothing is filed", async () => {
    const [reporter, target, other] = [await newUser(t, "r"), await newUser(t, "r"), await newUser(t, "r")];
    const mine = await postStatus(t, target, "public one");
    const othersStatus = await postStatus(t, other, "not theirs");
    const privateOne = await postStatus(t, target, { status: "followers only", visibility: "private" });
    for (const statusIds of [[othersStatus.id], ["999999999"], [privateOne.id], [mine.id, privateOne.id]]) {
      const res = await fileReport(t, reporter, { account_id: target.id, status_ids: statusIds });
      expect(res.status).toBe(404);
    }
    const moderator = await staffUser(t, "Moderator");
    const listed = await admin(t, "GET", `?target_account_id=${target.id}`, moderator.token);
    expect(listed.body).toEqual([]);
    // Once the reporter follows the account, its private status can be reported.
    await follow(t, reporter, target);
    expect((await reported(t, reporter, { account_id: target.id, status_ids: [privateOne.id] })).status_ids).toEqual([privateOne.id]);
  });

  test("collections are not supported: any collection id is 404", async () => {
    const [reporter, target] = [await newUser(t, "r"), await newUser(t, "r")];
    expect((await fileReport(t, reporter, { account_id: target.id, collection_ids: ["1"] })).status).toBe(404);
  });

  test("needs write:reports from a user token", async () => {
    const target = await newUser(t, "r");
    const reader = await newUser(t, "r", "read");
    expect((await fileReport(t, reader, { account_id: target.id })).status).toBe(403);
    const narrow = await newUser(t, "r", "write:reports");
    expect((await fileReport(t, narrow, { account_id: target.id })).status).toBe(200);
    expect((await fileReport(t, { token: "bogus" } as User, { account_id: target.id })).status).toBe(401);
    const app = await appToken(t, reader.app, "write");
    expect((await fileReport(t, { token: app.access_token } as User, { account_id: target.id })).status).toBe(422);
  });
});

describe("admin.report notifications", () => {
  const adminReports = async (user: User, query = "") => {
    const res = await get(t, `/api/v1/notifications?types[]=admin.report${query}`, user.token);
    expect(res.status).toBe(200);
    return res.body as any[];
  };

  test("every Owner, Admin and Moderator is notified, with the report; users and the reporter are not", async () => {
    const [owner, adminUser, moderator, plain] = [
      await staffUser(t, "Owner"), await staffUser(t, "Admin"), await staffUser(t, "Moderator"), await newUser(t, "plain"),
    ];
    const reportingModerator = await staffUser(t, "Moderator");
    const target = await withField(t, await newUser(t, "bad"));
    const status = await postStatus(t, target, "spammy");
    const rule = await serverRule(t, "No ads");
    const report = await reported(t, reportingModerator, { account_id: target.id, status_ids: [status.id], rule_ids: [rule], comment: "ads" });
    await settle(t);

    for (const staff of [owner, adminUser, moderator]) {
      const found = (await adminReports(staff)).filter((n) => n.report?.id === report.id);
      expect(found.length).toBe(1);
      const n = found[0];
      expect(n.type).toBe("admin.report");
      expect(n.account.id).toBe(reportingModerator.id);
      expect(n.group_key).toBe(`ungrouped-${n.id}`);
      expect(n.report).toEqual(report);
      expect(missingKeys(n.report, referenceKeys("POST /api/v1/reports/"))).toEqual([]);
      expect(n.status).toBeUndefined();

      const grouped = await get(t, "/api/v2/notifications?types[]=admin.report", staff.token);
      expect(grouped.status).toBe(200);
      const group = grouped.body.notification_groups.find((g: any) => g.report?.id === report.id);
      expect(group).toMatchObject({ type: "admin.report", group_key: `ungrouped-${n.id}`, notifications_count: 1, sample_account_ids: [reportingModerator.id] });
      expect(group.report).toEqual(report);
      expect(grouped.body.accounts.map((a: any) => a.id)).toContain(reportingModerator.id);

      const one = await get(t, `/api/v1/notifications/${n.id}`, staff.token);
      expect(one.body.report).toEqual(report);
    }
    expect(await adminReports(plain)).toEqual([]);
    expect((await adminReports(reportingModerator)).filter((n) => n.report?.id === report.id)).toEqual([]);
    expect((await adminReports(target))).toEqual([]);
  });

  test("while an earlier report about the account is open, staff are not notified again; after resolving they are", async () => {
    const moderator = await staffUser(t, "Moderator");
    const [first, second, target] = [await newUser(t, "r"), await newUser(t, "r"), await newUser(t, "bad")];
    const ids = async () => (await adminReports(moderator)).map((n) => n.report.id);
    const a = await reported(t, first, { account_id: target.id });
    await settle(t);
    expect(await ids()).toContain(a.id);

    const b = await reported(t, second, { account_id: target.id });
    // A report about someone else is announced meanwhile.
    const elsewhere = await reported(t, second, { account_id: first.id });
    await settle(t);
    expect(await ids()).not.toContain(b.id);
    expect(await ids()).toContain(elsewhere.id);

    expect((await admin(t, "POST", `/${a.id}/resolve`, moderator.token)).status).toBe(200);
    expect((await admin(t, "POST", `/${b.id}/resolve`, moderator.token)).status).toBe(200);
    const c = await reported(t, first, { account_id: target.id, comment: "again" });
    await settle(t);
    expect(await ids()).toContain(c.id);
  });

  test("each report from the same reporter notifies once: reports are not merged as duplicates", async () => {
    const moderator = await staffUser(t, "Moderator");
    const reporter = await newUser(t, "r");
    const [x, y] = [await newUser(t, "bad"), await newUser(t, "bad")];
    const one = await reported(t, reporter, { account_id: x.id });
    const two = await reported(t, reporter, { account_id: y.id });
    await settle(t);
    const got = (await adminReports(moderator)).filter((n) => n.account.id === reporter.id).map((n) => n.report.id);
    expect(got.sort()).toEqual([one.id, two.id].sort());
  });

  test("a moderator who blocks the reporter is not notified (the usual notification rules)", async () => {
    const [blocking, other] = [await staffUser(t, "Moderator"), await staffUser(t, "Moderator")];
    const [reporter, target] = [await newUser(t, "r"), await newUser(t, "bad")];
    const res = await t.request(`/api/v1/accounts/${reporter.id}/block`, { method: "POST", token: blocking.token });
    expect(res.status).toBe(200);
    const report = await reported(t, reporter, { account_id: target.id });
    await settle(t);
    expect((await adminReports(blocking)).filter((n) => n.report?.id === report.id)).toEqual([]);
    expect((await adminReports(other)).filter((n) => n.report?.id === report.id).length).toBe(1);
  });
});

describe("rate limit", () => {
  test("400 report requests a day per account, whatever the token; the next is 429", async () => {
    const limited = await startTestApp({ WARREN_RATE_LIMITS: "on" });
    try {
      const [first, second] = [await newUser(limited, "rl"), await newUser(limited, "rl")];
      // Two tokens of one user: the per-token API limit (300 / 5 min) is not what stops them.
      const extra = await limited.request("/oauth/token", {
        method: "POST",
        form: { grant_type: "password", client_id: first.app.client_id, client_secret: first.app.client_secret, username: first.username, password: first.password, scope: "write" },
      });
      const tokens = [first.token, ((await extra.json()) as any).access_token as string];
      const send = (token: string) => limited.request("/api/v1/reports", { method: "POST", token, json: {}, headers: { "x-forwarded-for": "192.0.2.7" } });
      for (let i = 0; i < 400; i++) expect((await send(tokens[i % 2]!)).status).toBe(404);
      const refused = await send(tokens[0]!);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("x-ratelimit-limit")).toBe("400");
      expect(await refused.json()).toEqual({ error: "Too many requests" });
      // Someone else still may.
      expect((await send(second.token)).status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
