// Locked accounts: follow → follow request (requested / requested_by), the follow_requests list, authorize
// (→ following, with a follow notification) and reject; requests never appear as notifications.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { silenceAccount } from "../helpers/moderation.ts";
import { account, get, newUser, post, relationship, updateProfile, type User } from "./relationships-helpers.ts";

setDefaultTimeout(30_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function notificationsFrom(to: User, from: User) {
  return notificationsBetween(t.deps.store, normaliseId(to.id)!, normaliseId(from.id)!);
}

async function lockedUser(prefix = "locked") {
  const user = await newUser(t, prefix);
  await updateProfile(t, user, { locked: true });
  return user;
}

describe("following a locked account", () => {
  test("creates a follow request: requested for the requester, requested_by for the target", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t);
    const res = await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { reblogs: false, notify: true, languages: ["fr"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: owner.id, following: false, requested: true, requested_by: false, followed_by: false,
      showing_reblogs: false, notifying: true, languages: ["fr"],
    });
    expect(await relationship(t, owner, fan)).toMatchObject({ requested_by: true, followed_by: false, requested: false, following: false });
    expect((await account(t, owner)).followers_count).toBe(0);
    // calling follow again updates the pending request's options; it stays one request
    const again = await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { reblogs: true });
    expect(again.body).toMatchObject({ requested: true, following: false, showing_reblogs: true, notifying: true, languages: ["fr"] });
    const list = await get(t, "/api/v1/follow_requests", owner.token);
    expect(list.status).toBe(200);
    expect(list.body.map((a: any) => a.id)).toEqual([fan.id]);
    expect(list.body[0].acct).toBe(fan.username);
    const me = await get(t, "/api/v1/accounts/verify_credentials", owner.token);
    expect(me.body.source.follow_requests_count).toBe(1);
    // follow requests never create notifications
    await t.deps.jobs.drain();
    expect(notificationsFrom(owner, fan)).toEqual([]);
  });

  test("unfollow withdraws the pending request", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    const res = await post(t, `/api/v1/accounts/${owner.id}/unfollow`, fan.token);
    expect(res.body).toMatchObject({ requested: false, following: false });
    expect((await get(t, "/api/v1/follow_requests", owner.token)).body).toEqual([]);
    expect((await relationship(t, owner, fan)).requested_by).toBe(false);
  });

  test("an account locked after being followed keeps its followers; following them is still at once", async () => {
    const owner = await newUser(t);
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    await updateProfile(t, owner, { locked: true });
    const res = await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    expect(res.body).toMatchObject({ following: true, requested: false });
  });
});

describe("unlocking the account, and silenced followers", () => {
  test("unlocking accepts every pending request at once: follows, follow notifications, counters", async () => {
    const owner = await lockedUser();
    const fans: User[] = [await newUser(t, "ul"), await newUser(t, "ul")];
    for (const fan of fans) await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { notify: true });
    const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: owner.token, form: { locked: "false" } });
    expect(res.status).toBe(200);
    const me = (await res.json()) as any;
    expect([me.locked, me.followers_count, me.source.follow_requests_count]).toEqual([false, 2, 0]);
    expect((await get(t, "/api/v1/follow_requests", owner.token)).body).toEqual([]);
    for (const fan of fans) {
      expect(await relationship(t, fan, owner)).toMatchObject({ following: true, requested: false, notifying: true });
      expect(notificationsFrom(owner, fan).map((n) => n.type)).toEqual(["follow"]);
    }
    const followers = await get(t, `/api/v1/accounts/${owner.id}/followers`);
    expect(followers.body.map((a: any) => a.id)).toEqual([fans[1]!.id, fans[0]!.id]);
    // saving the profile again (still unlocked) changes nothing
    await updateProfile(t, owner, { locked: false });
    expect((await account(t, owner)).followers_count).toBe(2);
  });

  test("following again, with a request left pending by an account unlocked since, follows at once (Mastodon's answer)", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t, "late");
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { reblogs: false });
    // unlocking leaves the request there (it is not accepted by the unlock)
    await updateProfile(t, owner, { locked: false });
    const res = await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    expect(res.body).toMatchObject({ following: true, requested: false, showing_reblogs: false });
    expect((await get(t, "/api/v1/follow_requests", owner.token)).body).toEqual([]);
    expect(notificationsFrom(owner, fan).map((n) => n.type)).toEqual(["follow"]);
  });

  test("a silenced account's follows always wait for an answer, and unlocking does not accept them", async () => {
    const open = await newUser(t, "open");
    const owner = await lockedUser();
    const silenced = await newUser(t, "quiet");
    await silenceAccount(t, silenced.id);
    const res = await post(t, `/api/v1/accounts/${open.id}/follow`, silenced.token);
    expect(res.body).toMatchObject({ following: false, requested: true });
    expect(await relationship(t, open, silenced)).toMatchObject({ requested_by: true, followed_by: false });
    await post(t, `/api/v1/accounts/${owner.id}/follow`, silenced.token);
    await updateProfile(t, owner, { locked: false });
    expect((await get(t, "/api/v1/follow_requests", owner.token)).body.map((a: any) => a.id)).toEqual([silenced.id]);
    expect((await post(t, `/api/v1/follow_requests/${silenced.id}/authorize`, owner.token)).body.followed_by).toBe(true);
  });
});

describe("POST /api/v1/follow_requests/:account_id/authorize", () => {
  test("turns the request into a follow with its options, and notifies the owner", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token, { reblogs: false });
    const res = await post(t, `/api/v1/follow_requests/${fan.id}/authorize`, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: fan.id, followed_by: true, requested_by: false, following: false });
    expect(await relationship(t, fan, owner)).toMatchObject({ following: true, requested: false, showing_reblogs: false });
    expect((await account(t, owner)).followers_count).toBe(1);
    expect((await account(t, fan)).following_count).toBe(1);
    expect((await get(t, "/api/v1/follow_requests", owner.token)).body).toEqual([]);
    const followers = await get(t, `/api/v1/accounts/${owner.id}/followers`, owner.token);
    expect(followers.body.map((a: any) => a.id)).toEqual([fan.id]);
    expect(notificationsFrom(owner, fan).map((n) => n.type)).toEqual(["follow"]);
    // authorising again answers the relationship as it stands
    const again = await post(t, `/api/v1/follow_requests/${fan.id}/authorize`, owner.token);
    expect(again.status).toBe(200);
    expect(again.body.followed_by).toBe(true);
    expect(notificationsFrom(owner, fan)).toHaveLength(1);
  });

  test("without a pending request it is 404; unknown accounts are 404", async () => {
    const owner = await lockedUser();
    const stranger = await newUser(t);
    for (const path of [`${stranger.id}/authorize`, `${stranger.id}/reject`, "987654321/authorize", "xyz/reject"]) {
      const res = await post(t, `/api/v1/follow_requests/${path}`, owner.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });
});

describe("POST /api/v1/follow_requests/:account_id/reject", () => {
  test("drops the request without a follow or a notification", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    const res = await post(t, `/api/v1/follow_requests/${fan.id}/reject`, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: fan.id, followed_by: false, requested_by: false });
    expect(await relationship(t, fan, owner)).toMatchObject({ following: false, requested: false });
    expect(notificationsFrom(owner, fan)).toEqual([]);
    // the requester may ask again
    expect((await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token)).body.requested).toBe(true);
  });
});

describe("GET /api/v1/follow_requests", () => {
  test("pages by request id, newest first, with Link headers", async () => {
    const owner = await lockedUser();
    const fans: User[] = [];
    for (let i = 0; i < 3; i++) fans.push(await newUser(t, "req"));
    for (const fan of fans) await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    const page = await get(t, "/api/v1/follow_requests?limit=2", owner.token);
    expect(page.body.map((a: any) => a.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link")!)![1]!;
    expect(next).toContain("/api/v1/follow_requests?limit=2&max_id=");
    expect(page.headers.get("link")).toContain("since_id=");
    const rest = await get(t, next.replace("http://localhost:3000", ""), owner.token);
    expect(rest.body.map((a: any) => a.id)).toEqual([fans[0]!.id]);
    expect(rest.headers.get("link")).not.toContain('rel="next"');
  });

  test("scopes: read:follows (or follow/read) to list, write:follows (or follow/write) to answer", async () => {
    const owner = await lockedUser();
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token);
    const lister = await newUser(t, "ls", "read:follows");
    expect((await get(t, "/api/v1/follow_requests", lister.token)).status).toBe(200);
    const wrong = await newUser(t, "wr", "read:accounts write:blocks");
    const res = await get(t, "/api/v1/follow_requests", wrong.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    expect((await post(t, `/api/v1/follow_requests/${fan.id}/authorize`, wrong.token)).status).toBe(403);
    expect((await get(t, "/api/v1/follow_requests")).status).toBe(401);
  });
});
