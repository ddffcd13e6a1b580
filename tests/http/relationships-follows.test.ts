// Following unlocked accounts, re-following with new options, unfollowing, remove_from_followers and the
// followers/following lists with their paging and privacy rules.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { account, get, newUser, post, relationship, updateProfile } from "./relationships-helpers.ts";

setDefaultTimeout(30_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const RELATIONSHIP_KEYS = [
  "blocked_by", "blocking", "domain_blocking", "endorsed", "followed_by", "following", "id", "languages", "muting",
  "muting_expires_at", "muting_notifications", "note", "notifying", "requested", "requested_by", "showing_reblogs",
].sort();

function followNotifications(to: { id: string }, from: { id: string }) {
  return notificationsBetween(t.deps.store, normaliseId(to.id)!, normaliseId(from.id)!).filter((n) => n.type === "follow");
}

describe("POST /api/v1/accounts/:id/follow", () => {
  test("an unlocked account is followed at once, with a follow notification and counters", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const res = await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(RELATIONSHIP_KEYS);
    expect(res.body).toEqual({
      id: b.id, following: true, showing_reblogs: true, notifying: false, languages: null, followed_by: false,
      blocking: false, blocked_by: false, muting: false, muting_notifications: false, muting_expires_at: null,
      requested: false, requested_by: false, domain_blocking: false, endorsed: false, note: "",
    });
    expect((await relationship(t, b, a)).followed_by).toBe(true);
    expect((await account(t, a)).following_count).toBe(1);
    expect((await account(t, b)).followers_count).toBe(1);
    expect(followNotifications(b, a)).toHaveLength(1);
  });

  test("following again is idempotent and only changes the options given", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token, { reblogs: false, languages: ["en", "DE"] });
    let rel = await relationship(t, a, b);
    expect(rel).toMatchObject({ following: true, showing_reblogs: false, notifying: false, languages: ["en", "de"] });
    const again = await post(t, `/api/v1/accounts/${b.id}/follow`, a.token, { notify: true });
    expect(again.body).toMatchObject({ following: true, showing_reblogs: false, notifying: true, languages: ["en", "de"] });
    // form-encoded booleans and an empty languages[] (= all languages)
    const form = await t.request(`/api/v1/accounts/${b.id}/follow`, { method: "POST", token: a.token, form: { reblogs: "true", "languages[]": "" } });
    expect(await form.json()).toMatchObject({ showing_reblogs: true, notifying: true, languages: null });
    expect((await account(t, b)).followers_count).toBe(1);
    expect(followNotifications(b, a)).toHaveLength(1);
  });

  test("following yourself is 403", async () => {
    const a = await newUser(t);
    const res = await post(t, `/api/v1/accounts/${a.id}/follow`, a.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is not allowed" });
    expect((await account(t, a)).following_count).toBe(0);
  });

  test("unknown, malformed and not yet approved accounts are 404", async () => {
    const a = await newUser(t);
    const pending = await createUser(t, "pendingfollowee", { approved: false });
    for (const id of ["999999999", "nope", pending.id]) {
      const res = await post(t, `/api/v1/accounts/${id}/follow`, a.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });

  test("bad tokens, app tokens, missing scopes and bad parameters", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    expect((await post(t, `/api/v1/accounts/${b.id}/follow`, "not-a-token")).status).toBe(401);
    const readOnly = await newUser(t, "ro", "read");
    const res = await post(t, `/api/v1/accounts/${b.id}/follow`, readOnly.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    const writeBlocks = await newUser(t, "wb", "write:blocks");
    expect((await post(t, `/api/v1/accounts/${b.id}/follow`, writeBlocks.token)).status).toBe(403);
    for (const scope of ["follow", "write", "write:follows"]) {
      const user = await newUser(t, "sc", scope);
      expect((await post(t, `/api/v1/accounts/${b.id}/follow`, user.token)).status).toBe(200);
    }
    const bad = await post(t, `/api/v1/accounts/${b.id}/follow`, a.token, { reblogs: "maybe" });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toStartWith("Validation failed");
  });
});

describe("POST /api/v1/accounts/:id/unfollow and remove_from_followers", () => {
  test("unfollow ends the follow, is idempotent and keeps counters right", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    for (let i = 0; i < 2; i++) {
      const res = await post(t, `/api/v1/accounts/${b.id}/unfollow`, a.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: b.id, following: false, requested: false, showing_reblogs: false });
    }
    expect((await account(t, a)).following_count).toBe(0);
    expect((await account(t, b)).followers_count).toBe(0);
    expect((await post(t, `/api/v1/accounts/123456789/unfollow`, a.token)).status).toBe(404);
    expect((await post(t, `/api/v1/accounts/${a.id}/unfollow`, a.token)).status).toBe(200);
  });

  test("remove_from_followers makes the other account stop following you", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    const res = await post(t, `/api/v1/accounts/${a.id}/remove_from_followers`, b.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, followed_by: false, following: false });
    expect((await relationship(t, a, b)).following).toBe(false);
    expect((await account(t, b)).followers_count).toBe(0);
    expect((await post(t, `/api/v1/accounts/${a.id}/remove_from_followers`, b.token)).status).toBe(200);
    expect((await post(t, `/api/v1/accounts/99999999/remove_from_followers`, b.token)).status).toBe(404);
    const readOnly = await newUser(t, "ro", "read");
    expect((await post(t, `/api/v1/accounts/${a.id}/remove_from_followers`, readOnly.token)).status).toBe(403);
  });
});

describe("GET /api/v1/accounts/:id/followers and /following", () => {
  test("newest follow first, paged by follow id with Link headers", async () => {
    const star = await newUser(t, "star");
    const fans = [];
    for (let i = 0; i < 5; i++) fans.push(await newUser(t, "fan"));
    for (const fan of fans) await post(t, `/api/v1/accounts/${star.id}/follow`, fan.token);
    // the oldest fan re-follows: its follow keeps its place
    await post(t, `/api/v1/accounts/${star.id}/follow`, fans[0]!.token, { notify: true });

    const all = await get(t, `/api/v1/accounts/${star.id}/followers`);
    expect(all.status).toBe(200);
    expect(all.body.map((a: any) => a.id)).toEqual(fans.map((f) => f.id).reverse());
    expect(all.headers.get("link")).toContain('rel="prev"');
    expect(all.headers.get("link")).not.toContain('rel="next"');

    const first = await get(t, `/api/v1/accounts/${star.id}/followers?limit=2`);
    expect(first.body.map((a: any) => a.id)).toEqual([fans[4]!.id, fans[3]!.id]);
    const link = first.headers.get("link")!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    const prev = /<([^>]+)>; rel="prev"/.exec(link)![1]!;
    expect(next).toStartWith(`http://localhost:3000/api/v1/accounts/${star.id}/followers?limit=2&max_id=`);
    expect(prev).toContain("since_id=");
    const second = await get(t, next.replace("http://localhost:3000", ""));
    expect(second.body.map((a: any) => a.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    const newer = await get(t, prev.replace("http://localhost:3000", ""));
    expect(newer.body).toEqual([]);
    expect(newer.headers.get("link")).toBeNull();

    const following = await get(t, `/api/v1/accounts/${fans[0]!.id}/following`);
    expect(following.body.map((a: any) => a.id)).toEqual([star.id]);
    expect((await get(t, `/api/v1/accounts/${star.id}/followers?limit=500`)).body).toHaveLength(5);
    expect((await get(t, `/api/v1/accounts/${star.id}/followers?limit=0`)).body).toEqual([]);
  });

  test("hidden collections are empty for everyone but their owner", async () => {
    const shy = await newUser(t, "shy");
    const fan = await newUser(t);
    await post(t, `/api/v1/accounts/${shy.id}/follow`, fan.token);
    await post(t, `/api/v1/accounts/${fan.id}/follow`, shy.token);
    await updateProfile(t, shy, { hide_collections: true });
    expect((await get(t, `/api/v1/accounts/${shy.id}/followers`)).body).toEqual([]);
    expect((await get(t, `/api/v1/accounts/${shy.id}/following`, fan.token)).body).toEqual([]);
    expect((await get(t, `/api/v1/accounts/${shy.id}/followers`, shy.token)).body.map((a: any) => a.id)).toEqual([fan.id]);
    expect((await get(t, `/api/v1/accounts/${shy.id}/following`, shy.token)).body.map((a: any) => a.id)).toEqual([fan.id]);
  });

  test("an owner who blocks the viewer shows them nothing; blocked and muted accounts are left out", async () => {
    const owner = await newUser(t);
    const fan1 = await newUser(t);
    const fan2 = await newUser(t);
    const viewer = await newUser(t);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan1.token);
    await post(t, `/api/v1/accounts/${owner.id}/follow`, fan2.token);
    await post(t, `/api/v1/accounts/${fan1.id}/mute`, viewer.token);
    expect((await get(t, `/api/v1/accounts/${owner.id}/followers`, viewer.token)).body.map((a: any) => a.id)).toEqual([fan2.id]);
    await post(t, `/api/v1/accounts/${viewer.id}/block`, owner.token);
    expect((await get(t, `/api/v1/accounts/${owner.id}/followers`, viewer.token)).body).toEqual([]);
    expect((await get(t, `/api/v1/accounts/${owner.id}/followers`)).body).toHaveLength(2);
  });

  test("unknown accounts are 404; a token without read:accounts is 403", async () => {
    expect((await get(t, "/api/v1/accounts/424242424242/followers")).status).toBe(404);
    expect((await get(t, "/api/v1/accounts/abc/following")).status).toBe(404);
    const a = await newUser(t);
    const narrow = await newUser(t, "nr", "read:statuses");
    expect((await get(t, `/api/v1/accounts/${a.id}/followers`, narrow.token)).status).toBe(403);
    expect((await get(t, `/api/v1/accounts/${a.id}/followers`, "bogus")).status).toBe(401);
  });
});
