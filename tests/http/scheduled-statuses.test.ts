// Scheduled statuses: scheduled_at on POST /api/v1/statuses (ScheduledStatus answer, Mastodon's limits), the
// /api/v1/scheduled_statuses routes, and publishing by the delayed job (run by moving the clock with
// setSystemTime and draining the queue: the five-minute rule stays as clients meet it).
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { uploadImage } from "../helpers/media.ts";
import { publishScheduled } from "../../src/domain/statuses/scheduled-publish.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { getScheduledStatus } from "../../src/store/scheduled-statuses.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  [alice, bob] = await Promise.all([newUser(t, "alice"), newUser(t, "bob")]);
  await follow(t, bob, alice);
}, 60_000);
afterAll(() => t.close());
afterEach(() => setSystemTime());

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const schedule = (user: User, json: Record<string, unknown>) => post(t, "/api/v1/statuses", user.token, json);
const PARAM_KEYS = [
  "text", "poll", "media_ids", "sensitive", "spoiler_text", "visibility", "in_reply_to_id", "language", "application_id",
  "scheduled_at", "idempotency", "with_rate_limit", "allowed_mentions", "quoted_status_id", "quote_approval_policy",
];

/** Moves the clock past `iso` and lets the queue run what became due. */
async function runUntil(iso: string) {
  setSystemTime(new Date(Date.parse(iso) + 1000));
  await t.deps.jobs.drain();
}

describe("scheduling", () => {
  test("a time ahead answers a ScheduledStatus; nothing is posted until then; then it is, once", async () => {
    const before = (await get(t, "/api/v1/accounts/verify_credentials", alice.token)).body.statuses_count;
    const at = inMinutes(10);
    const res = await schedule(alice, { status: "later", scheduled_at: at, visibility: "unlisted", spoiler_text: "cw" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["id", "scheduled_at", "params", "media_attachments"]);
    expect(Object.keys(res.body.params)).toEqual(PARAM_KEYS);
    expect(res.body).toMatchObject({ scheduled_at: at, media_attachments: [] });
    expect(res.body.params).toMatchObject({ text: "later", visibility: "unlisted", spoiler_text: "cw", sensitive: true, poll: null, media_ids: null });
    expect((await get(t, `/api/v1/scheduled_statuses/${res.body.id}`, alice.token)).body).toEqual(res.body);
    expect((await get(t, "/api/v1/accounts/verify_credentials", alice.token)).body.statuses_count).toBe(before);

    await runUntil(at);
    const statuses = (await get(t, `/api/v1/accounts/${alice.id}/statuses?limit=1`, alice.token)).body;
    expect(statuses[0]).toMatchObject({ content: "<p>later</p>", visibility: "unlisted", spoiler_text: "cw" });
    expect(statuses[0].application.name).toBe("test client");
    expect((await get(t, `/api/v1/scheduled_statuses/${res.body.id}`, alice.token)).status).toBe(404);
    // The job again (as after a crash) posts nothing more.
    await publishScheduled(t.deps, { id: normaliseId(res.body.id)!, scheduledAt: Date.parse(at) });
    expect((await get(t, "/api/v1/accounts/verify_credentials", alice.token)).body.statuses_count).toBe(before + 1);
    // Followers get it in their home timeline like any post.
    const home = (await get(t, "/api/v1/timelines/home?limit=5", bob.token)).body;
    expect(home.some((s: any) => s.id === statuses[0].id)).toBe(true);
  });

  test("a time in the past posts now; one within five minutes, or no date, is 422", async () => {
    const now = await schedule(alice, { status: "right away", scheduled_at: new Date(Date.now() - 60_000).toISOString() });
    expect(now.body.content).toBe("<p>right away</p>");
    for (const scheduled_at of [inMinutes(4), "tomorrow", "x".repeat(5000), "2026-13-45T00:00:00Z"]) {
      const res = await schedule(alice, { status: "x", scheduled_at });
      expect({ scheduled_at: scheduled_at.slice(0, 20), status: res.status }).toEqual({ scheduled_at: scheduled_at.slice(0, 20), status: 422 });
    }
    // Posting rules apply when scheduling: blank text, an invisible parent.
    expect((await schedule(alice, { status: " ", scheduled_at: inMinutes(30) })).status).toBe(422);
    expect((await schedule(alice, { status: "x", in_reply_to_id: "1", scheduled_at: inMinutes(30) })).status).toBe(404);
  });

  test("a poll and attachments are kept for the time; attachments are reserved until then", async () => {
    const media = await uploadImage(t, alice.token, "a picture");
    const at = inMinutes(20);
    const res = await schedule(alice, { status: "picture", media_ids: [media.id], scheduled_at: at });
    expect(res.body.media_attachments.map((m: any) => [m.id, m.description])).toEqual([[media.id, "a picture"]]);
    expect(res.body.params.media_ids).toEqual([media.id]);
    // Reserved: no other post (scheduled or not) may take it.
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "thief", media_ids: [media.id] })).status).toBe(422);
    const poll = await schedule(alice, { status: "vote", poll: { options: ["a", "b"], expires_in: 600, multiple: true }, scheduled_at: at });
    expect(poll.body.params.poll).toEqual({ options: ["a", "b"], expires_in: 600, multiple: true, hide_totals: false });

    await runUntil(at);
    const posted = (await get(t, `/api/v1/accounts/${alice.id}/statuses?limit=2`, alice.token)).body;
    const picturePost = posted.find((s: any) => s.content === "<p>picture</p>");
    const votePost = posted.find((s: any) => s.content === "<p>vote</p>");
    expect(picturePost.media_attachments.map((m: any) => m.id)).toEqual([media.id]);
    // Its end counts from publication (workers keep the real clock, so `expired` is not compared here).
    expect(votePost.poll).toMatchObject({ multiple: true, votes_count: 0 });
    expect(Date.parse(votePost.poll.expires_at) - Date.parse(votePost.created_at)).toBeGreaterThanOrEqual(600_000 - 5);
  });
});

describe("managing them", () => {
  test("list (paged, own only), reschedule, delete: a deleted one is never published and frees its attachments", async () => {
    const dave = await newUser(t, "dave");
    const made: any[] = [];
    for (let i = 0; i < 3; i++) made.push((await schedule(dave, { status: `s${i}`, scheduled_at: inMinutes(30 + i) })).body);
    const page = await get(t, "/api/v1/scheduled_statuses?limit=2", dave.token);
    expect(page.body.map((s: any) => s.id)).toEqual([made[2].id, made[1].id]);
    expect(page.headers.get("link")).toContain(`max_id=${made[1].id}`);
    const next = await get(t, `/api/v1/scheduled_statuses?limit=2&max_id=${made[1].id}`, dave.token);
    expect(next.body.map((s: any) => s.id)).toEqual([made[0].id]);
    expect((await get(t, "/api/v1/scheduled_statuses", bob.token)).body.some((s: any) => s.id === made[0].id)).toBe(false);
    for (const method of ["GET", "PUT", "DELETE"]) {
      expect((await call(t, method, `/api/v1/scheduled_statuses/${made[0].id}`, bob.token, { scheduled_at: inMinutes(60) })).status).toBe(404);
    }

    const later = inMinutes(90);
    const moved = await call(t, "PUT", `/api/v1/scheduled_statuses/${made[0].id}`, dave.token, { scheduled_at: later });
    expect(moved.body.scheduled_at).toBe(later);
    expect((await call(t, "PUT", `/api/v1/scheduled_statuses/${made[0].id}`, dave.token, { scheduled_at: inMinutes(1) })).status).toBe(422);

    const media = await uploadImage(t, dave.token);
    const withMedia = (await schedule(dave, { status: "cancel me", media_ids: [media.id], scheduled_at: inMinutes(31) })).body;
    expect((await call(t, "DELETE", `/api/v1/scheduled_statuses/${withMedia.id}`, dave.token)).body).toEqual({});
    expect((await get(t, `/api/v1/scheduled_statuses/${withMedia.id}`, dave.token)).status).toBe(404);
    expect((await post(t, "/api/v1/statuses", dave.token, { status: "reused", media_ids: [media.id] })).status).toBe(200);

    // At the old time of the moved one nothing is posted for it; the cancelled one never is.
    await runUntil(inMinutes(35));
    const texts = (await get(t, `/api/v1/accounts/${dave.id}/statuses`, dave.token)).body.map((s: any) => s.content);
    // s1 and s2 fall due together here and are published by jobs running side by side: in either order.
    expect(texts.toSorted()).toEqual(["<p>reused</p>", "<p>s1</p>", "<p>s2</p>"]);
    expect((await get(t, `/api/v1/scheduled_statuses/${made[0].id}`, dave.token)).status).toBe(200);
    await runUntil(later);
    expect((await get(t, `/api/v1/accounts/${dave.id}/statuses?limit=1`, dave.token)).body[0].content).toBe("<p>s0</p>");
  });

  test("limits: 25 due on one day, 300 waiting", async () => {
    const erin = await newUser(t, "erin");
    const day = (n: number) => new Date(Date.UTC(2099, 0, 1 + n, 12)).getTime();
    const at = (n: number, minute: number) => new Date(day(n) + minute * 60_000).toISOString();
    for (let i = 0; i < 25; i++) expect((await schedule(erin, { status: `d0 ${i}`, scheduled_at: at(0, i) })).status).toBe(200);
    const over = await schedule(erin, { status: "one more", scheduled_at: at(0, 30) });
    expect(over).toMatchObject({ status: 422, body: { error: "Validation failed: You have exceeded the limit of 25 scheduled posts for that day" } });
    for (let n = 1; n < 12; n++) {
      for (let i = 0; i < 25; i++) expect((await schedule(erin, { status: `d${n} ${i}`, scheduled_at: at(n, i) })).status).toBe(200);
    }
    const total = await schedule(erin, { status: "301st", scheduled_at: at(20, 0) });
    expect(total).toMatchObject({ status: 422, body: { error: "Validation failed: You have exceeded the limit of 300 scheduled posts" } });
    // Posting now is not limited by them.
    expect((await postStatus(t, erin, "now")).content).toBe("<p>now</p>");
  }, 120_000);

  test("a reply whose parent is deleted meanwhile is posted on its own", async () => {
    const parent = await postStatus(t, bob, "parent");
    const at = inMinutes(40);
    const reply = await schedule(alice, { status: "reply", in_reply_to_id: parent.id, scheduled_at: at });
    expect(reply.body.params.in_reply_to_id).toBe(parent.id);
    await call(t, "DELETE", `/api/v1/statuses/${parent.id}`, bob.token);
    await runUntil(at);
    const latest = (await get(t, `/api/v1/accounts/${alice.id}/statuses?limit=1`, alice.token)).body[0];
    expect(latest).toMatchObject({ content: "<p>reply</p>", in_reply_to_id: null });
    expect(getScheduledStatus(t.deps.store, normaliseId(reply.body.id)!)).toBeUndefined();
  });
});
