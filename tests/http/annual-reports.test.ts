// Annual reports (API.md §7.9, docs/annual-reports.md), with jobs on a worker thread as users run the server.
// A past year of activity is seeded (annual-reports-seed.ts: the API only acts now), this year's through the
// API; then reports are generated through the API, their state polled, and every field checked against the seed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { computeAnnualReport } from "../../src/domain/annual-reports/compute.ts";
import { generateAnnualReport } from "../../src/domain/annual-reports/generate.ts";
import { currentCampaign, GENERATION_STALE_MS } from "../../src/domain/annual-reports/rules.ts";
import { normaliseId, publicId } from "../../src/lib/ids.ts";
import { annualReportsOf, getAnnualReport, putGeneration, removeAnnualReportsOf } from "../../src/store/annual-reports.ts";
import { pendingJobs } from "../../src/store/jobs.ts";
import { findAppByClientId } from "../../src/store/oauth.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, passwordToken } from "../helpers/clients.ts";
import { at, backdate } from "./annual-reports-seed.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";
import { eventually } from "../helpers/eventually.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

let t: TestApp;
const YEAR = new Date().getUTCFullYear() - 1;
/** The archetype accounts post in the year before and the ineligible ones two years before, so that they leave
 * YEAR's percentiles alone. */
const EARLIER = YEAR - 1;
const QUIET = YEAR - 2;

let owner: User;
let bob: User;
let carol: User;
let dave: User;
let eve: User;
type Seeded = "b1" | "b2" | "c1" | "c2" | "d1" | "s1" | "s2" | "s3" | "s4" | "s5" | "s6" | "r1" | "r2" | "r3" | "r4" | "rb1" | "rb2" | "rb3" | "deleted";
const s = {} as Record<Seeded, StatusRecord>;
let tuskyAppId: string;

const pub = (status: StatusRecord) => publicId(status.id);

/** Generates through the API and polls the state, as a client does, until the report is available. */
async function generate(user: User, year = YEAR) {
  const res = await post(t, `/api/v1/annual_reports/${year}/generate`, user.token);
  expect(res.status).toBe(202);
  expect(res.headers.get("mastodon-async-refresh")).toMatch(/^id="[\w-]+", retry=2$/);
  await eventually(async () => {
    const state = await get(t, `/api/v1/annual_reports/${year}/state`, user.token);
    expect(state.status).toBe(200);
    expect(["generating", "available"]).toContain(state.body.state);
    return state.body.state === "available" ? true : undefined;
  }, { what: "the report", timeoutMs: 20_000 });
  const show = await get(t, `/api/v1/annual_reports/${year}`, user.token);
  expect(show.status).toBe(200);
  return show.body;
}

const state = async (user: User, year: number | string = YEAR) => (await get(t, `/api/v1/annual_reports/${year}/state`, user.token)).body.state;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "1" });
  [owner, bob, carol, dave, eve] = [await newUser(t, "ar"), await newUser(t, "ar"), await newUser(t, "ar"), await newUser(t, "ar"), await newUser(t, "ar")];
  const tusky = await t.request("/api/v1/apps", { method: "POST", json: { client_name: "Tusky", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" } });
  tuskyAppId = findAppByClientId(t.deps.store, ((await tusky.json()) as { client_id: string }).client_id)!.id;
  const ownerAppId = findAppByClientId(t.deps.store, owner.app.client_id)!.id;

  await backdate(t, (w) => {
    // Others' statuses the owner interacts with
    s.b1 = w.post(bob.id, at(YEAR, 1));
    s.b2 = w.post(bob.id, at(YEAR, 1));
    s.c1 = w.post(carol.id, at(YEAR, 1));
    s.c2 = w.post(carol.id, at(YEAR, 1));
    s.d1 = w.post(dave.id, at(YEAR, 1));
    // The owner's year: 6 originals, 3 replies to others, a reply to itself, 3 reblogs
    s.s1 = w.post(owner.id, at(YEAR, 1), { tags: ["cats", "dogs"], appId: ownerAppId });
    s.s2 = w.post(owner.id, at(YEAR, 2), { tags: ["cats"], appId: ownerAppId });
    s.s3 = w.post(owner.id, at(YEAR, 3), { tags: ["cats", "birds"], visibility: "unlisted", appId: ownerAppId });
    s.s4 = w.post(owner.id, at(YEAR, 3), { mentions: [bob.id] });
    s.s5 = w.post(owner.id, at(YEAR, 4), { tags: ["dogs"], visibility: "private" });
    s.s6 = w.post(owner.id, at(YEAR, 5), { mentions: [carol.id], visibility: "direct" });
    s.r1 = w.reply(owner.id, at(YEAR, 6), s.b1, { mentions: [bob.id], appId: tuskyAppId });
    s.r2 = w.reply(owner.id, at(YEAR, 6), s.b2, { mentions: [bob.id], appId: tuskyAppId });
    s.r3 = w.reply(owner.id, at(YEAR, 7), s.c1, { mentions: [carol.id] });
    s.r4 = w.reply(owner.id, at(YEAR, 7), s.s1);
    s.rb1 = w.reblog(owner.id, at(YEAR, 8), s.b1);
    s.rb2 = w.reblog(owner.id, at(YEAR, 8), s.b2);
    s.rb3 = w.reblog(owner.id, at(YEAR, 9), s.c1);
    w.favourite(owner.id, at(YEAR, 10), s.b1);
    w.favourite(owner.id, at(YEAR, 10), s.c1);
    w.favourite(owner.id, at(YEAR, 10), s.c2);
    w.favourite(owner.id, at(YEAR, 10), s.d1);
    // What others did with the owner's statuses: s2 most reblogged, s1 most favourited, s4 most replied to
    w.reblog(bob.id, at(YEAR, 2), s.s2);
    w.reblog(carol.id, at(YEAR, 2), s.s2);
    w.reblog(dave.id, at(YEAR, 2), s.s1);
    for (const who of [bob, carol, dave]) w.favourite(who.id, at(YEAR, 2), s.s1);
    w.favourite(bob.id, at(YEAR, 2), s.s2);
    w.reply(bob.id, at(YEAR, 3), s.s1);
    for (const who of [bob, carol, dave]) w.reply(who.id, at(YEAR, 4), s.s4);
    // Follows: 3 followers gained (Feb, Feb, Nov), 2 accounts followed (Jan, Mar)
    w.follow(bob.id, owner.id, at(YEAR, 2));
    w.follow(carol.id, owner.id, at(YEAR, 2));
    w.follow(dave.id, owner.id, at(YEAR, 11));
    w.follow(owner.id, bob.id, at(YEAR, 1));
    w.follow(owner.id, carol.id, at(YEAR, 3));
    // Outside the year: the last moment of the year before, the first of the next
    w.post(owner.id, Date.UTC(YEAR, 0, 1) - 1, { tags: ["cats"] });
    w.post(owner.id, Date.UTC(YEAR + 1, 0, 1), { tags: ["cats"] });
    w.follow(eve.id, owner.id, Date.UTC(YEAR + 1, 0, 1));
    // A status deleted since (below) counts nowhere
    s.deleted = w.post(owner.id, at(YEAR, 12), { tags: ["cats", "birds"], mentions: [dave.id] });
  });
  // This year's activity, through the API: never in last year's report
  await postStatus(t, owner, { status: "now #cats #birds @" + dave.username, visibility: "public" });
  expect((await post(t, `/api/v1/statuses/${pub(s.b2)}/favourite`, owner.token)).status).toBe(200);
  await follow(t, owner, dave);
  expect((await call(t, "DELETE", `/api/v1/statuses/${pub(s.deleted)}`, owner.token)).status).toBe(200);
  await t.deps.jobs.drain();
});

afterAll(async () => {
  await t?.close();
});

describe("state and eligibility", () => {
  test("a year that has ended, with a public status and a hashtag, is eligible", async () => {
    expect(await state(owner)).toBe("eligible");
  });

  test("this year is eligible only from 10 December; future years, years before 1970 and non-years never", async () => {
    const now = new Date();
    expect(await state(owner, now.getUTCFullYear())).toBe(currentCampaign(Date.now()) === null ? "ineligible" : "eligible");
    expect(await state(owner, now.getUTCFullYear() + 1)).toBe("ineligible");
    expect(await state(owner, 1969)).toBe("ineligible");
    expect(await state(owner, "last")).toBe("ineligible");
    expect(await state(owner, "99999")).toBe("ineligible");
  });

  test("too little activity is ineligible (Mastodon 4.5: no public or unlisted status, or no hashtag), and generating it does nothing", async () => {
    const [secretive, untagged, idle] = [await newUser(t, "ar"), await newUser(t, "ar"), await newUser(t, "ar")];
    await backdate(t, (w) => {
      for (const visibility of ["private", "direct"] as const) w.post(secretive.id, at(QUIET, 5), { tags: ["cats"], visibility });
      w.post(untagged.id, at(QUIET, 5), { visibility: "public" });
      w.post(untagged.id, at(QUIET, 5), { visibility: "unlisted" });
    });
    for (const user of [secretive, untagged, idle]) {
      expect(await state(user, QUIET)).toBe("ineligible");
      const res = await post(t, `/api/v1/annual_reports/${QUIET}/generate`, user.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(res.headers.get("mastodon-async-refresh")).toBeNull();
      expect(await state(user, QUIET)).toBe("ineligible");
    }
    // A hashtag only on a reblogged status does not count either: the reblog carries none.
    const booster = await newUser(t, "ar");
    await backdate(t, (w) => w.reblog(booster.id, at(QUIET, 5), s.c2));
    expect(await state(booster, QUIET)).toBe("ineligible");
  });

  test("this year's report cannot be generated before the campaign; nor a future year", async () => {
    const thisYear = new Date().getUTCFullYear();
    if (currentCampaign(Date.now()) === null) {
      expect(await post(t, `/api/v1/annual_reports/${thisYear}/generate`, owner.token)).toMatchObject({ status: 200, body: {} });
    }
    expect(await post(t, `/api/v1/annual_reports/${thisYear + 1}/generate`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect(await get(t, `/api/v1/annual_reports/${thisYear + 1}`, owner.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });
});

describe("the owner's report", () => {
  let wrapper: any;

  beforeAll(async () => {
    expect((await get(t, `/api/v1/annual_reports/${YEAR}`, owner.token)).status).toBe(404);
    wrapper = await generate(owner);
  });

  test("the wrapper: one report of the year, schema 1, the owner's, no share URL", () => {
    expect(Object.keys(wrapper).sort()).toEqual(["accounts", "annual_reports", "statuses"]);
    expect(wrapper.annual_reports).toHaveLength(1);
    const report = wrapper.annual_reports[0];
    expect(report).toMatchObject({ year: YEAR, schema_version: 1, share_url: null, account_id: owner.id });
    expect(Object.keys(report.data).sort()).toEqual([
      "archetype", "commonly_interacted_with_accounts", "most_reblogged_accounts", "most_used_apps", "percentiles",
      "time_series", "top_hashtags", "top_statuses", "type_distribution",
    ]);
  });

  test("type distribution and archetype: 13 posts of the year (a self-reply is standalone), fewer than 113 make a lurker", () => {
    const { data } = wrapper.annual_reports[0];
    expect(data.type_distribution).toEqual({ total: 13, reblogs: 3, replies: 3, standalone: 7 });
    expect(data.archetype).toBe("lurker");
  });

  test("top hashtags: used at least twice, most used first", () => {
    expect(wrapper.annual_reports[0].data.top_hashtags).toEqual([
      { name: "cats", count: 3 },
      { name: "dogs", count: 2 },
    ]);
  });

  test("top statuses: public only; most reblogged, then most favourited and most replied to among the rest", () => {
    expect(wrapper.annual_reports[0].data.top_statuses).toEqual({ by_reblogs: pub(s.s2), by_favourites: pub(s.s1), by_replies: pub(s.s4) });
    expect(wrapper.statuses.map((status: any) => status.id).sort()).toEqual([pub(s.s1), pub(s.s2), pub(s.s4)].sort());
    const s1 = wrapper.statuses.find((status: any) => status.id === pub(s.s1));
    expect(s1).toMatchObject({ reblogs_count: 1, favourites_count: 3, replies_count: 2, account: { id: owner.id } });
  });

  test("most interacted with: replies, mentions, reblogs and favourites of theirs, each status once, at least twice", () => {
    // bob: a mention, two replies (that also mention him), two reblogs, a favourite; carol: a mention, a reply,
    // a reblog, two favourites; dave: one favourite (a deleted status's mention and this year's do not count,
    // nor this year's favourite of bob's)
    expect(wrapper.annual_reports[0].data.commonly_interacted_with_accounts).toEqual([
      { account_id: bob.id, count: 6 },
      { account_id: carol.id, count: 5 },
    ]);
    expect(wrapper.annual_reports[0].data.most_reblogged_accounts).toEqual([{ account_id: bob.id, count: 2 }]);
    expect(wrapper.accounts.map((account: any) => account.id).sort()).toEqual([bob.id, carol.id].sort());
    expect(wrapper.accounts[0]).toHaveProperty("acct");
  });

  test("most used apps, by name", () => {
    expect(wrapper.annual_reports[0].data.most_used_apps).toEqual([
      { name: "test client", count: 3 },
      { name: "Tusky", count: 2 },
    ]);
  });

  test("time series: statuses, follows made and followers gained per month", () => {
    const series = wrapper.annual_reports[0].data.time_series;
    expect(series.map((m: any) => m.month)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(series.map((m: any) => m.statuses)).toEqual([1, 1, 2, 1, 1, 2, 2, 2, 1, 0, 0, 0]);
    expect(series.map((m: any) => m.following)).toEqual([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(series.map((m: any) => m.followers)).toEqual([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
  });

  test("percentiles as Mastodon: active local accounts with fewer, over their number plus one", () => {
    // Statuses of the year: owner 13, bob 5, carol 4, dave 3 (the other users posted none): 3 of 4 have fewer.
    // Followers gained: owner 3, bob 1, carol 1 (dave none): 2 of 3 have fewer.
    expect(wrapper.annual_reports[0].data.percentiles).toEqual({ statuses: (3 / 5) * 100, followers: (2 / 4) * 100 });
  });

  test("read in batches: the same report whatever the batch size", async () => {
    let pauses = 0;
    const data = await computeAnnualReport(t.deps.store, normaliseId(owner.id)!, YEAR, { batch: 2, pause: async () => void pauses++ });
    expect(data).toEqual(getAnnualReport(t.deps.store, normaliseId(owner.id)!, YEAR)!.data);
    expect(pauses).toBeGreaterThan(10);
  });

  test("state is available; generating again starts nothing and one report stays", async () => {
    expect(await state(owner)).toBe("available");
    const again = await Promise.all([1, 2, 3].map(() => post(t, `/api/v1/annual_reports/${YEAR}/generate`, owner.token)));
    for (const res of again) expect(res).toMatchObject({ status: 200, body: {} });
    // The job running again (after a crash) changes nothing either.
    const before = getAnnualReport(t.deps.store, normaliseId(owner.id)!, YEAR)!;
    await generateAnnualReport(t.deps, { accountId: normaliseId(owner.id)!, year: YEAR });
    expect(getAnnualReport(t.deps.store, normaliseId(owner.id)!, YEAR)).toEqual(before);
    await t.deps.jobs.drain();
    const notifications = await get(t, "/api/v1/notifications?types[]=annual_report", owner.token);
    expect(notifications.body).toHaveLength(1);
  });

  test("the annual_report notification: from the owner, with the year (v1 and grouped v2)", async () => {
    const v1 = await get(t, "/api/v1/notifications", owner.token);
    const mine = v1.body.filter((n: any) => n.type === "annual_report");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: "annual_report", account: { id: owner.id }, annual_report: { year: String(YEAR) } });
    expect(mine[0].group_key).toBe(`ungrouped-${mine[0].id}`);
    expect(mine[0]).not.toHaveProperty("status");
    const one = await get(t, `/api/v1/notifications/${mine[0].id}`, owner.token);
    expect(one.body.annual_report).toEqual({ year: String(YEAR) });
    const v2 = await get(t, "/api/v2/notifications?types[]=annual_report", owner.token);
    expect(v2.body.notification_groups).toHaveLength(1);
    expect(v2.body.notification_groups[0]).toMatchObject({
      type: "annual_report",
      sample_account_ids: [owner.id],
      annual_report: { year: String(YEAR) },
    });
    expect(v2.body.notification_groups[0]).not.toHaveProperty("status_id");
    const others = await get(t, "/api/v1/notifications?exclude_types[]=annual_report", owner.token);
    expect(others.body.some((n: any) => n.type === "annual_report")).toBe(false);
  });

  test("unread reports are listed until marked read; the year's report stays readable", async () => {
    const listed = await get(t, "/api/v1/annual_reports", owner.token);
    expect(listed.body.annual_reports.map((r: any) => r.year)).toEqual([YEAR]);
    expect(listed.body.accounts.length).toBe(2);
    expect(await post(t, `/api/v1/annual_reports/${YEAR}/read`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect(await get(t, "/api/v1/annual_reports", owner.token)).toMatchObject({ status: 200, body: { annual_reports: [], accounts: [], statuses: [] } });
    expect((await get(t, `/api/v1/annual_reports/${YEAR}`, owner.token)).body.annual_reports[0].year).toBe(YEAR);
    expect(await post(t, `/api/v1/annual_reports/${YEAR - 5}/read`, owner.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
  });

  test("nobody else reads it: other users get their own (none), 404 or ineligible", async () => {
    expect(await get(t, `/api/v1/annual_reports/${YEAR}`, eve.token)).toMatchObject({ status: 404 });
    expect(await get(t, "/api/v1/annual_reports", eve.token)).toMatchObject({ status: 200, body: { annual_reports: [] } });
    expect(await post(t, `/api/v1/annual_reports/${YEAR}/read`, eve.token)).toMatchObject({ status: 404 });
    expect(await state(eve)).toBe("ineligible");
    // eve's own generation does not touch the owner's report
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/generate`, eve.token)).status).toBe(200);
    expect(getAnnualReport(t.deps.store, normaliseId(eve.id)!, YEAR)).toBeUndefined();
  });
});

describe("generating", () => {
  test("while the job waits: state generating with the async refresh header; asking again enqueues nothing", async () => {
    const user = await newUser(t, "ar");
    await backdate(t, (w) => w.post(user.id, at(QUIET, 3), { tags: ["hello"] }));
    expect(await state(user, QUIET)).toBe("eligible");
    t.deps.jobs.pause();
    try {
      const asked = await Promise.all([1, 2, 3].map(() => post(t, `/api/v1/annual_reports/${QUIET}/generate`, user.token)));
      for (const res of asked) {
        expect(res.status).toBe(202);
        expect(res.body).toBeNull();
        expect(res.headers.get("mastodon-async-refresh")).toMatch(/^id="[\w-]+", retry=2$/);
      }
      const jobs = pendingJobs(t.deps.store, 1000).filter((job) => job.type === "annual_reports.generate");
      expect(jobs).toHaveLength(1);
      const polled = await get(t, `/api/v1/annual_reports/${QUIET}/state`, user.token);
      expect(polled.body).toEqual({ state: "generating" });
      expect(polled.headers.get("mastodon-async-refresh")).toBe(asked[0]!.headers.get("mastodon-async-refresh"));
      expect((await get(t, `/api/v1/annual_reports/${QUIET}`, user.token)).status).toBe(404);
    } finally {
      t.deps.jobs.resume();
    }
    const wrapper = await eventually(async () => {
      const res = await get(t, `/api/v1/annual_reports/${QUIET}`, user.token);
      return res.status === 200 ? res.body : undefined;
    }, { what: "the report", timeoutMs: 20_000 });
    expect(wrapper.annual_reports[0].data.type_distribution).toEqual({ total: 1, reblogs: 0, replies: 0, standalone: 1 });
    expect(wrapper.annual_reports[0].data.top_hashtags).toEqual([]);
    expect(await state(user, QUIET)).toBe("available");
    // The store's clean-up for an account whose data goes: its reports and generations
    const accountId = normaliseId(user.id)!;
    await t.deps.store.write(() => putGeneration(t.deps.store, accountId, EARLIER, { requestedAt: Date.now() }));
    expect(await t.deps.store.write(() => removeAnnualReportsOf(t.deps.store, accountId))).toBe(2);
    expect(annualReportsOf(t.deps.store, accountId)).toEqual([]);
    expect(await state(user, EARLIER)).toBe("ineligible");
  });

  test("a generation whose job gave up long ago no longer counts as generating: it may be asked again", async () => {
    const user = await newUser(t, "ar");
    await backdate(t, (w) => {
      w.post(user.id, at(QUIET, 3), { tags: ["hello"] });
      putGeneration(t.deps.store, normaliseId(user.id)!, QUIET, { requestedAt: Date.now() - GENERATION_STALE_MS - 1 });
    });
    expect(await state(user, QUIET)).toBe("eligible");
    await generate(user, QUIET);
  });
});

describe("scopes (Mastodon: read:accounts to read, write:accounts to generate and mark read)", () => {
  async function tokenWith(user: User, scope: string) {
    const app = await createClientApp(t, "read write");
    return (await passwordToken(t, app, user.username, user.password, scope)).access_token;
  }

  test("without a token: 401", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/annual_reports"],
      ["GET", `/api/v1/annual_reports/${YEAR}`],
      ["GET", `/api/v1/annual_reports/${YEAR}/state`],
      ["POST", `/api/v1/annual_reports/${YEAR}/generate`],
      ["POST", `/api/v1/annual_reports/${YEAR}/read`],
    ]) {
      expect((await call(t, method!, path!)).status).toBe(401);
    }
  });

  test("read:accounts reads but cannot generate or mark read; write:accounts the reverse; read:statuses nothing", async () => {
    const reader = await tokenWith(owner, "read:accounts");
    expect((await get(t, "/api/v1/annual_reports", reader)).status).toBe(200);
    expect((await get(t, `/api/v1/annual_reports/${YEAR}`, reader)).status).toBe(200);
    expect((await get(t, `/api/v1/annual_reports/${YEAR}/state`, reader)).status).toBe(200);
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/generate`, reader)).status).toBe(403);
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/read`, reader)).status).toBe(403);
    const writer = await tokenWith(owner, "write:accounts");
    expect((await get(t, "/api/v1/annual_reports", writer)).status).toBe(403);
    expect((await get(t, `/api/v1/annual_reports/${YEAR}/state`, writer)).status).toBe(403);
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/read`, writer)).status).toBe(200);
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/generate`, writer)).status).toBe(200);
    const statuses = await tokenWith(owner, "read:statuses write:statuses");
    expect((await get(t, "/api/v1/annual_reports", statuses)).status).toBe(403);
    expect((await post(t, `/api/v1/annual_reports/${YEAR}/generate`, statuses)).status).toBe(403);
  });
});

describe("archetypes (Mastodon's rules)", () => {
  /** 113 posts in EARLIER: `standalone` originals (the first tagged), the rest reblogs or replies. */
  async function active(kind: "booster" | "replier" | "oracle", standalone: number) {
    const user = await newUser(t, "ar");
    await backdate(t, (w) => {
      for (let i = 0; i < standalone; i++) w.post(user.id, at(EARLIER, 1 + (i % 12)), { tags: i === 0 ? ["hello"] : [] });
      for (let i = standalone; i < 113; i++) {
        const original = w.post(bob.id, at(EARLIER, 1));
        if (kind === "booster") w.reblog(user.id, at(EARLIER, 6), original);
        else w.reply(user.id, at(EARLIER, 6), original);
      }
    });
    return user;
  }

  test("booster (reblogs > 2 × standalone), replier (replies to others > 2 × standalone), oracle", async () => {
    const booster = await active("booster", 37);
    const replier = await active("replier", 37);
    const oracle = await active("oracle", 113);
    const balanced = await active("replier", 38);
    for (const [user, archetype] of [[booster, "booster"], [replier, "replier"], [oracle, "oracle"], [balanced, "oracle"]] as const) {
      expect(await state(user, EARLIER)).toBe("eligible");
      const wrapper = await generate(user, EARLIER);
      expect(wrapper.annual_reports[0].data.archetype).toBe(archetype);
      expect(wrapper.annual_reports[0].data.type_distribution.total).toBe(113);
    }
  });
});
