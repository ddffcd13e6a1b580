// Mutes: notifications (default true), duration (seconds, 0 = forever) with expiry honoured everywhere,
// unmute, and GET /api/v1/mutes with mute_expires_at.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { getMuteRecord } from "../../src/store/relationships.ts";
import { get, newUser, post, relationship, type User, notificationsFrom as notificationsOf } from "./relationships-helpers.ts";

setDefaultTimeout(30_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const notificationsFrom = (to: User, from: User) => notificationsOf(t, to, from);

describe("POST /api/v1/accounts/:id/mute", () => {
  test("mutes with notifications by default, forever; the mute keeps follows and hides notifications", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const res = await post(t, `/api/v1/accounts/${b.id}/mute`, a.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: b.id, muting: true, muting_notifications: true, muting_expires_at: null, blocking: false });
    expect((await relationship(t, b, a)).muting).toBe(false);
    // b follows a: a muted b with notifications, so no follow notification arrives; b may still follow
    expect((await post(t, `/api/v1/accounts/${a.id}/follow`, b.token)).body.following).toBe(true);
    expect(notificationsFrom(a, b)).toEqual([]);
    const list = await get(t, "/api/v1/mutes", a.token);
    expect(list.body.map((x: any) => [x.id, x.mute_expires_at])).toEqual([[b.id, null]]);
    expect(list.body[0].username).toBe(b.username);
  });

  test("notifications=false keeps notifications; muting again changes the options in place", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const c = await newUser(t);
    const res = await t.request(`/api/v1/accounts/${b.id}/mute`, { method: "POST", token: a.token, form: { notifications: "false" } });
    expect(await res.json()).toMatchObject({ muting: true, muting_notifications: false });
    await post(t, `/api/v1/accounts/${a.id}/follow`, b.token);
    expect(notificationsFrom(a, b).map((n) => n.type)).toEqual(["follow"]);
    await post(t, `/api/v1/accounts/${c.id}/mute`, a.token);
    const again = await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { notifications: true, duration: 3600 });
    expect(again.body).toMatchObject({ muting: true, muting_notifications: true });
    const expires = Date.parse(again.body.muting_expires_at);
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
    // b keeps its place (older mute) in the list
    const list = await get(t, "/api/v1/mutes", a.token);
    expect(list.body.map((x: any) => x.id)).toEqual([c.id, b.id]);
    expect(list.body[1].mute_expires_at).toBe(again.body.muting_expires_at);
  });

  test("an expired mute is gone from the relationship, the list and the notification rules", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const res = await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { duration: "1" });
    expect(res.body.muting).toBe(true);
    expect(res.body.muting_expires_at).not.toBeNull();
    // The end itself is under test (a 1 s mute, the shortest), read before any clean-up job could run.
    await Bun.sleep(1100);
    expect(await relationship(t, a, b)).toMatchObject({ muting: false, muting_notifications: false, muting_expires_at: null });
    expect((await get(t, "/api/v1/mutes", a.token)).body).toEqual([]);
    await post(t, `/api/v1/accounts/${a.id}/follow`, b.token);
    expect(notificationsFrom(a, b).map((n) => n.type)).toEqual(["follow"]);
    // muting again after expiry starts a new mute
    expect((await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { duration: 0 })).body).toMatchObject({ muting: true, muting_expires_at: null });
    expect((await get(t, "/api/v1/mutes", a.token)).body.map((x: any) => x.id)).toEqual([b.id]);
  });

  test("any mute, notifications=false too, hides the muted account's statuses until it expires", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    const first = (await post(t, "/api/v1/statuses", b.token, { status: "muted words #mutetag", visibility: "public" })).body.id;
    await t.deps.jobs.drain();
    const timelines = ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/timelines/tag/mutetag"];
    const seen = async () => {
      const out: boolean[] = [];
      for (const path of timelines) out.push((await get(t, path, a.token)).body.some((x: any) => x.id === first));
      return out;
    };
    expect(await seen()).toEqual([true, true, true]);
    const res = await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { notifications: false, duration: "2" });
    expect(res.body).toMatchObject({ muting: true, muting_notifications: false, following: true });
    expect(await seen()).toEqual([false, false, false]);
    // opened by id it is still there, as on Mastodon
    expect((await get(t, `/api/v1/statuses/${first}`, a.token)).status).toBe(200);
    // the mute.expired job deletes the mute when it ends, so no page kept from before still hides them
    await eventually(() => getMuteRecord(t.deps.store, normaliseId(a.id)!, normaliseId(b.id)!) === undefined, { what: "the mute.expired job" });
    expect(await seen()).toEqual([true, true, true]);
  });

  test("an empty duration (as forms send it) mutes until unmuted", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const res = await t.request(`/api/v1/accounts/${b.id}/mute`, { method: "POST", token: a.token, form: { duration: "", notifications: "true" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ muting: true, muting_notifications: true, muting_expires_at: null });
  });

  test("bad input: duration not a whole number of seconds, yourself, unknown ids, scopes", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    for (const duration of ["-5", "soon", "1.5"]) {
      const res = await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { duration });
      expect(res.status).toBe(422);
      expect(res.body.error).toStartWith("Validation failed");
    }
    expect((await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { notifications: "perhaps" })).status).toBe(422);
    const self = await post(t, `/api/v1/accounts/${a.id}/mute`, a.token);
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ error: "This action is not allowed" });
    expect((await post(t, "/api/v1/accounts/31415926535/mute", a.token)).status).toBe(404);
    expect((await post(t, "/api/v1/accounts/31415926535/unmute", a.token)).status).toBe(404);
    const blocksOnly = await newUser(t, "bo", "write:blocks read:blocks");
    const res = await post(t, `/api/v1/accounts/${b.id}/mute`, blocksOnly.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    expect((await get(t, "/api/v1/mutes", blocksOnly.token)).status).toBe(403);
    const muter = await newUser(t, "mu", "write:mutes read:mutes");
    expect((await post(t, `/api/v1/accounts/${b.id}/mute`, muter.token)).status).toBe(200);
    expect((await get(t, "/api/v1/mutes", muter.token)).status).toBe(200);
  });
});

describe("POST /api/v1/accounts/:id/unmute", () => {
  test("ends the mute; idempotent", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/mute`, a.token);
    for (let i = 0; i < 2; i++) {
      const res = await post(t, `/api/v1/accounts/${b.id}/unmute`, a.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ muting: false, muting_notifications: false, muting_expires_at: null });
    }
    expect((await get(t, "/api/v1/mutes", a.token)).body).toEqual([]);
  });
});

describe("GET /api/v1/mutes", () => {
  test("pages by mute id with Link headers", async () => {
    const a = await newUser(t);
    const muted: User[] = [];
    for (let i = 0; i < 3; i++) muted.push(await newUser(t, "mt"));
    for (const m of muted) await post(t, `/api/v1/accounts/${m.id}/mute`, a.token);
    const page = await get(t, "/api/v1/mutes?limit=2", a.token);
    expect(page.body.map((x: any) => x.id)).toEqual([muted[2]!.id, muted[1]!.id]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link")!)![1]!;
    const rest = await get(t, next.replace("http://localhost:3000", ""), a.token);
    expect(rest.body.map((x: any) => x.id)).toEqual([muted[0]!.id]);
    const prev = /<([^>]+)>; rel="prev"/.exec(rest.headers.get("link")!)![1]!;
    expect(prev).toContain("since_id=");
    expect((await get(t, prev.replace("http://localhost:3000", ""), a.token)).body.map((x: any) => x.id)).toEqual([muted[2]!.id, muted[1]!.id]);
  });
});
