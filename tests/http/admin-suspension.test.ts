// A suspension through the admin API hides the account on every read path at once, locks its user out,
// and is lifted without loss while its data is kept; DELETE (or the end of the retention) removes the data in
// a job, after which the account stays suspended for good. Jobs run on worker threads, as users run them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { servedStatus, storedOnDisk, uploadImage } from "../helpers/media.ts";
import { api, staffUser, type Staffer } from "./admin-helpers.ts";
import { follow, get, newUser, post, postStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
let admin: Staffer;
let viewer: User;
let victim: User;
let own: any;
let victimPost: any;
let victimReply: any;
let victimReblog: any;

const ids = (answer: { body: any[] }) => answer.body.map((item: any) => item.id);

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  admin = await staffUser(t, "boss", "Admin");
  viewer = await newUser(t, "viewer");
  victim = await newUser(t, "victim");
  await follow(t, viewer, victim);
  await follow(t, victim, viewer);
  own = await postStatus(t, viewer, "my thread #topic");
  victimPost = await postStatus(t, victim, `hello @${viewer.username} #topic`);
  victimReply = await postStatus(t, victim, { status: "a reply", in_reply_to_id: own.id });
  const third = await newUser(t, "third");
  const thirdPost = await postStatus(t, third, "worth sharing");
  victimReblog = (await post(t, `/api/v1/statuses/${thirdPost.id}/reblog`, victim.token)).body;
  await post(t, `/api/v1/statuses/${own.id}/reblog`, victim.token);
  await post(t, `/api/v1/statuses/${own.id}/favourite`, victim.token);
  await post(t, `/api/v1/statuses/${own.id}/bookmark`, victim.token);
  await t.deps.jobs.drain();
});
afterAll(() => t.close());

const suspend = () => api(t, "POST", `/api/v1/admin/accounts/${victim.id}/action`, admin.token, { type: "suspend", send_email_notification: false });

/** `tokenStatus`: what the victim's own token gets (403 while suspended, 401 once its tokens are revoked). */
async function readsSeeVictim(expected: boolean, tokenStatus = expected ? 200 : 403): Promise<void> {
  const has = (list: string[], id: string) => expect(list.includes(id)).toBe(expected);
  // Statuses by id, anonymous and signed in; the account's statuses
  expect((await get(t, `/api/v1/statuses/${victimPost.id}`, viewer.token)).status).toBe(expected ? 200 : 404);
  expect((await get(t, `/api/v1/statuses/${victimPost.id}`)).status).toBe(expected ? 200 : 404);
  expect((await get(t, `/api/v1/accounts/${victim.id}/statuses`, viewer.token)).body.length > 0).toBe(expected);
  // Timelines: home (status and reblog), public, hashtag
  const home = ids(await get(t, "/api/v1/timelines/home", viewer.token));
  has(home, victimPost.id);
  has(home, victimReblog.id);
  has(ids(await get(t, "/api/v1/timelines/public")), victimPost.id);
  has(ids(await get(t, "/api/v1/timelines/tag/topic", viewer.token)), victimPost.id);
  // Context of the viewer's thread
  has(ids({ body: (await get(t, `/api/v1/statuses/${own.id}/context`, viewer.token)).body.descendants }), victimReply.id);
  // Notifications: mention, favourite, reblog, follow (v1) and the grouped v2 sample accounts
  const notifications = (await get(t, "/api/v1/notifications", viewer.token)).body as any[];
  expect(notifications.some((n) => n.account.id === victim.id)).toBe(expected);
  const groups = (await get(t, "/api/v2/notifications", viewer.token)).body;
  expect(groups.notification_groups.some((g: any) => g.sample_account_ids.includes(victim.id))).toBe(expected);
  // People lists: followers, favourited_by, reblogged_by
  has(ids(await get(t, `/api/v1/accounts/${viewer.id}/followers`, viewer.token)), victim.id);
  has(ids(await get(t, `/api/v1/statuses/${own.id}/favourited_by`, viewer.token)), victim.id);
  has(ids(await get(t, `/api/v1/statuses/${own.id}/reblogged_by`, viewer.token)), victim.id);
  // Relationships (unless with_suspended) and search
  has(ids(await get(t, `/api/v1/accounts/relationships?id[]=${victim.id}`, viewer.token)), victim.id);
  expect(ids(await get(t, `/api/v1/accounts/relationships?id[]=${victim.id}&with_suspended=true`, viewer.token))).toEqual([victim.id]);
  has(ids({ body: (await get(t, `/api/v2/search?q=${victim.username}&type=accounts`, viewer.token)).body.accounts }), victim.id);
  // The victim's own token
  expect((await get(t, "/api/v1/accounts/verify_credentials", victim.token)).status).toBe(tokenStatus);
}

describe("suspension", () => {
  test("before: every read path shows the account", () => readsSeeVictim(true));

  test("hides the account on every read path at once, and unsuspend brings it all back", async () => {
    expect((await suspend()).status).toBe(200);
    await readsSeeVictim(false);
    // The profile still answers, blanked and marked, as Mastodon shows suspended accounts.
    const profile = await get(t, `/api/v1/accounts/${victim.id}`, viewer.token);
    expect(profile).toMatchObject({ status: 200, body: { id: victim.id, suspended: true, display_name: "", note: "" } });
    expect((await get(t, `/api/v1/accounts/lookup?acct=${victim.username}`)).body.suspended).toBe(true);
    // Interacting with its statuses or following it is as with anything unseen: 404.
    expect((await post(t, `/api/v1/statuses/${victimPost.id}/favourite`, viewer.token)).status).toBe(404);
    expect((await post(t, `/api/v1/accounts/${victim.id}/follow`, viewer.token)).status).toBe(404);
    // Nothing was removed meanwhile (the data is kept for the retention period).
    await t.deps.jobs.drain();
    expect((await api(t, "POST", `/api/v1/admin/accounts/${victim.id}/unsuspend`, admin.token)).body.suspended).toBe(false);
    await readsSeeVictim(true);
  });

  test("DELETE removes the data in a job; the account stays, suspended for good, its name taken", async () => {
    const media = await uploadImage(t, victim.token, "a picture");
    const withMedia = await postStatus(t, victim, { status: "with a picture", media_ids: [media.id] });
    await t.deps.jobs.drain();
    expect(storedOnDisk(t, media.url)).toBe(true);
    // Only a suspended account's data can be deleted.
    expect((await api(t, "DELETE", `/api/v1/admin/accounts/${victim.id}`, admin.token)).status).toBe(403);
    expect((await suspend()).status).toBe(200);
    expect(await api(t, "DELETE", `/api/v1/admin/accounts/${victim.id}`, admin.token)).toMatchObject({ status: 200, body: {} });
    await t.deps.jobs.drain();
    await eventually(() => !storedOnDisk(t, media.url), { what: "the media file removed" });
    // Statuses, media files, follows both ways, favourites and bookmarks are gone; counters follow.
    expect((await servedStatus(t, media.url))).toBe(404);
    expect(storedOnDisk(t, media.url)).toBe(false);
    const viewerAccount = (await get(t, `/api/v1/accounts/${viewer.id}`, viewer.token)).body;
    expect(viewerAccount).toMatchObject({ followers_count: 0, following_count: 0 });
    const ownNow = (await get(t, `/api/v1/statuses/${own.id}`, viewer.token)).body;
    expect(ownNow).toMatchObject({ favourites_count: 0, reblogs_count: 0, replies_count: 0 });
    const shown = await api(t, "GET", `/api/v1/admin/accounts/${victim.id}`, admin.token);
    expect(shown.body).toMatchObject({ suspended: true, account: { statuses_count: 0, followers_count: 0, following_count: 0 } });
    expect((await get(t, `/api/v1/statuses/${withMedia.id}`, admin.token)).status).toBe(404);
    // Deleted for good: no unsuspending, no second deletion, and the name stays taken.
    expect((await api(t, "POST", `/api/v1/admin/accounts/${victim.id}/unsuspend`, admin.token)).status).toBe(403);
    expect((await api(t, "DELETE", `/api/v1/admin/accounts/${victim.id}`, admin.token)).status).toBe(403);
    await expect(createUser(t, victim.username)).rejects.toThrow();
    await readsSeeVictim(false, 401);
  });
});

describe("retention", () => {
  test("with WARREN_SUSPENSION_RETENTION_DAYS=0 the data goes as soon as the account is suspended", async () => {
    const quick = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_SUSPENSION_RETENTION_DAYS: "0" });
    try {
      const boss = await staffUser(quick, "boss", "Admin");
      const fan = await newUser(quick, "fan");
      const poster = await newUser(quick, "poster");
      await follow(quick, fan, poster);
      const status = await postStatus(quick, poster, "soon gone");
      await api(quick, "POST", `/api/v1/admin/accounts/${poster.id}/action`, boss.token, { type: "suspend", send_email_notification: false });
      await quick.deps.jobs.drain();
      await eventually(async () => (await get(quick, `/api/v1/accounts/${fan.id}`, fan.token)).body.following_count === 0, { what: "the follow removed" });
      // Unsuspending shows what remains: an empty account.
      const back = await api(quick, "POST", `/api/v1/admin/accounts/${poster.id}/unsuspend`, boss.token);
      expect(back.status).toBe(403);
      expect((await get(quick, `/api/v1/statuses/${status.id}`, fan.token)).status).toBe(404);
    } finally {
      await quick.close();
    }
  });
});
