// The admin dashboard's data: POST /api/v1/admin/measures (new and active users, opened and resolved reports per
// day, the period's total and the previous period's), /dimensions (languages, servers, sign-up sources, software,
// space) and /retention (sign-up cohorts); keys Warren keeps no record of are left out; view_dashboard and
// admin:read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { api, staffUser, type Staffer } from "./admin-helpers.ts";
import { postStatus, remoteAccount, remoteStatus } from "./timelines-helpers.ts";

let t: TestApp;
let admin: Staffer;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffUser(t, "dashboarder", "Admin");
});
afterAll(() => t.close());

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const measures = (token: string, keys: string[], from = day(-2), to = day(0)) =>
  api(t, "POST", "/api/v1/admin/measures", token, { keys, start_at: from, end_at: to });

describe("admin measures", () => {
  test("today's sign-ups, sign-ins and reports, day by day; unknown keys left out", async () => {
    const reporter = await signedInUser(t, "reporter1");
    const target = await signedInUser(t, "target1");
    const filed = await api(t, "POST", "/api/v1/reports", reporter.token, { account_id: target.id, comment: "spam" });
    expect(filed.status).toBe(200);
    expect((await api(t, "POST", `/api/v1/admin/reports/${filed.body.id}/resolve`, admin.token)).status).toBe(200);
    await api(t, "POST", "/api/v1/reports", target.token, { account_id: reporter.id, comment: "tit for tat" });

    const res = await measures(admin.token, ["new_users", "active_users", "opened_reports", "resolved_reports", "interactions"]);
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.map((m: any) => [m.key, m]));
    expect(Object.keys(byKey)).toEqual(["new_users", "active_users", "opened_reports", "resolved_reports"]);
    expect(missingKeys(res.body[0], referenceKeys("POST /api/v1/admin/measures"))).toEqual([]);
    // Three users signed up and signed in today (the admin too); two reports filed, one resolved.
    expect(byKey.new_users).toMatchObject({ unit: null, total: "3", previous_total: "0" });
    expect(byKey.new_users.data.map((d: any) => d.value)).toEqual(["0", "0", "3"]);
    expect(byKey.new_users.data[2].date).toBe(`${day(0)}T00:00:00.000+00:00`);
    expect(byKey.active_users.total).toBe("3");
    expect(byKey.opened_reports.total).toBe("2");
    expect(byKey.resolved_reports.data.map((d: any) => d.value)).toEqual(["0", "0", "1"]);
    // Yesterday alone: nothing; its previous period neither.
    expect((await measures(admin.token, ["new_users"], day(-1), day(-1))).body[0]).toMatchObject({ total: "0", data: [{ value: "0" }] });
  });

  test("bad dates and spans are 422; a plain user, a narrow token and no token are refused", async () => {
    expect((await measures(admin.token, ["new_users"], "yesterday-ish", day(0))).status).toBe(422);
    expect((await measures(admin.token, ["new_users"], day(0), day(-1))).status).toBe(422);
    expect((await measures(admin.token, ["new_users"], day(-500), day(0))).status).toBe(422);
    const plain = await staffUser(t, "plainreader", "User");
    expect((await measures(plain.token, ["new_users"])).status).toBe(403);
    const narrow = await staffUser(t, "narrowreader", "Admin", "admin:read:accounts");
    expect((await measures(narrow.token, ["new_users"])).status).toBe(403);
    expect((await api(t, "POST", "/api/v1/admin/measures", undefined, { keys: ["new_users"], start_at: day(0), end_at: day(0) })).status).toBe(401);
  });
});

describe("admin dimensions and retention", () => {
  test("dimensions: languages of local posts, servers of remote ones, sign-up sources, software, space", async () => {
    const writer = await signedInUser(t, "polyglot");
    await postStatus(t, writer, { status: "hallo welt", language: "de" });
    await postStatus(t, writer, { status: "guten tag", language: "de" });
    await postStatus(t, writer, { status: "hello", language: "en" });
    await remoteStatus(t, await remoteAccount(t, "farwriter", "far.example"));
    const body = { keys: ["languages", "servers", "sources", "software_versions", "space_usage", "tag_servers"], start_at: day(-1), end_at: day(0) };
    const res = await api(t, "POST", "/api/v1/admin/dimensions", admin.token, body);
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.map((d: any) => [d.key, d.data]));
    expect(Object.keys(byKey)).toEqual(["languages", "servers", "sources", "software_versions", "space_usage"]);
    // unit and human_value come with sizes only (space_usage), as in Mastodon's answers.
    const missing = missingKeys(res.body[0], referenceKeys("POST /api/v1/admin/dimensions"));
    expect(missing.filter((k) => k !== "data.unit" && k !== "data.human_value")).toEqual([]);
    expect(byKey.languages.slice(0, 2)).toEqual([
      { key: "de", human_key: "de", value: "2" },
      { key: "en", human_key: "en", value: "1" },
    ]);
    expect(byKey.servers).toEqual([{ key: "far.example", human_key: "far.example", value: "1" }]);
    // The test users were made by the operator (no app): Mastodon names such sign-ups by the web.
    expect(byKey.sources.map((s: any) => s.key)).toEqual(["Website"]);
    expect(byKey.software_versions.map((s: any) => s.key)).toEqual(["warren", "bun", "libvips"]);
    expect(byKey.space_usage.map((s: any) => [s.key, s.unit])).toEqual([["lmdb", "bytes"], ["media", "bytes"]]);
    expect(Number(byKey.space_usage[0].value)).toBeGreaterThan(0);
  });

  test("dimensions without start_at and end_at (as masto.js asks): the period is left open", async () => {
    const res = await api(t, "POST", "/api/v1/admin/dimensions", admin.token, { keys: ["languages", "sources"] });
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.map((d: any) => [d.key, d.data]));
    expect(Object.keys(byKey)).toEqual(["languages", "sources"]);
    expect(byKey.languages.map((l: any) => l.key)).toContain("de");
    expect(byKey.sources.map((s: any) => s.key)).toEqual(["Website"]);
    const reversed = { keys: ["languages"], start_at: day(0), end_at: day(-3) };
    expect((await api(t, "POST", "/api/v1/admin/dimensions", admin.token, reversed)).status).toBe(422);
  });

  test("retention: today's cohort came back today; a month view too", async () => {
    const res = await api(t, "POST", "/api/v1/admin/retention", admin.token, { start_at: day(-1), end_at: day(0), frequency: "day" });
    expect(res.status).toBe(200);
    expect(missingKeys(res.body[1], referenceKeys("POST /api/v1/admin/retention"))).toEqual([]);
    const [yesterday, today] = res.body;
    expect(yesterday.data.map((d: any) => d.value)).toEqual(["0", "0"]);
    expect(today).toMatchObject({ period: `${day(0)}T00:00:00.000+00:00`, frequency: "day", data: [{ rate: 1 }] });
    expect(Number(today.data[0].value)).toBeGreaterThan(0);
    const monthly = await api(t, "POST", "/api/v1/admin/retention", admin.token, { start_at: day(0), end_at: day(0), frequency: "month" });
    expect(monthly.body).toHaveLength(1);
    expect((await api(t, "POST", "/api/v1/admin/retention", admin.token, { start_at: day(0), end_at: day(0), frequency: "week" })).status).toBe(422);
  });
});
