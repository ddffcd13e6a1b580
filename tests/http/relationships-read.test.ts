// GET /api/v1/accounts/relationships (every Relationship field, id forms, unknown ids), GET /api/v1/accounts/familiar_followers
// and POST /api/v1/accounts/:id/note.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { get, newUser, post, relationship, type User } from "./relationships-helpers.ts";

setDefaultTimeout(30_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
let me: User;
let other: User;
beforeAll(async () => {
  t = await startTestApp();
  me = await newUser(t, "me");
  other = await newUser(t, "other");
});
afterAll(() => t.close());

describe("GET /api/v1/accounts/relationships", () => {
  test("every field, with defaults for strangers", async () => {
    const res = await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`, me.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: other.id, following: false, showing_reblogs: false, notifying: false, languages: null, followed_by: false,
        blocking: false, blocked_by: false, muting: false, muting_notifications: false, muting_expires_at: null,
        requested: false, requested_by: false, domain_blocking: false, endorsed: false, note: "",
      },
    ]);
  });

  test("several ids in order, a single id=, repeats once, unknown and malformed ids left out", async () => {
    const third = await newUser(t, "third");
    const res = await get(t, `/api/v1/accounts/relationships?id[]=${third.id}&id[]=999999999&id[]=${other.id}&id[]=${third.id}&id[]=zz`, me.token);
    expect(res.body.map((r: any) => r.id)).toEqual([third.id, other.id]);
    expect((await get(t, `/api/v1/accounts/relationships?id=${other.id}`, me.token)).body.map((r: any) => r.id)).toEqual([other.id]);
    expect((await get(t, "/api/v1/accounts/relationships", me.token)).body).toEqual([]);
    const self = await relationship(t, me, me);
    expect(self).toMatchObject({ id: me.id, following: false, followed_by: false });
  });

  test("reflects follow options, mutes with expiry, blocks and notes", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token, { reblogs: false, notify: true, languages: ["en"] });
    await post(t, `/api/v1/accounts/${b.id}/mute`, a.token, { notifications: false, duration: 600 });
    await post(t, `/api/v1/accounts/${b.id}/note`, a.token, { comment: "met at the conference" });
    const rel = await relationship(t, a, b);
    expect(rel).toMatchObject({
      following: true, showing_reblogs: false, notifying: true, languages: ["en"], muting: true, muting_notifications: false,
      note: "met at the conference",
    });
    expect(typeof rel.muting_expires_at).toBe("string");
    expect(await relationship(t, b, a)).toMatchObject({ followed_by: true, muting: false, note: "" });
    await post(t, `/api/v1/accounts/${a.id}/block`, b.token);
    expect(await relationship(t, a, b)).toMatchObject({ following: false, blocked_by: true, blocking: false, muting: true });
  });

  test("needs a user token with read:follows (or read / follow)", async () => {
    const narrow = await newUser(t, "na", "read:accounts");
    const res = await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`, narrow.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    for (const scope of ["read:follows", "follow"]) {
      const user = await newUser(t, "rf", scope);
      expect((await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`, user.token)).status).toBe(200);
    }
    const app = await createClientApp(t);
    const appOnly = await appToken(t, app, "read");
    const viaApp = await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`, appOnly.access_token);
    expect(viaApp.status).toBe(422);
    expect(viaApp.body).toEqual({ error: "This method requires an authenticated user" });
    expect((await get(t, `/api/v1/accounts/relationships?id[]=${other.id}`)).status).toBe(401);
  });
});

describe("POST /api/v1/accounts/:id/note", () => {
  test("sets, replaces and clears the note", async () => {
    const res = await post(t, `/api/v1/accounts/${other.id}/note`, me.token, { comment: "first" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: other.id, note: "first" });
    const form = await t.request(`/api/v1/accounts/${other.id}/note`, { method: "POST", token: me.token, form: { comment: "second ✓" } });
    expect(((await form.json()) as any).note).toBe("second ✓");
    expect((await relationship(t, me, other)).note).toBe("second ✓");
    expect((await post(t, `/api/v1/accounts/${other.id}/note`, me.token, { comment: "   " })).body.note).toBe("");
    expect((await post(t, `/api/v1/accounts/${other.id}/note`, me.token, { comment: "x" })).body.note).toBe("x");
    expect((await post(t, `/api/v1/accounts/${other.id}/note`, me.token, {})).body.note).toBe("");
  });

  test("bad input: too long, unknown account, scopes", async () => {
    const tooLong = await post(t, `/api/v1/accounts/${other.id}/note`, me.token, { comment: "a".repeat(2001) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toEqual({ error: "Validation failed: Comment is too long (maximum is 2000 characters)" });
    expect((await post(t, `/api/v1/accounts/${other.id}/note`, me.token, { comment: "a".repeat(2000) })).status).toBe(200);
    expect((await post(t, "/api/v1/accounts/55555555555/note", me.token, { comment: "x" })).status).toBe(404);
    const follows = await newUser(t, "nf", "follow");
    const res = await post(t, `/api/v1/accounts/${other.id}/note`, follows.token, { comment: "x" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    const accounts = await newUser(t, "wa", "write:accounts");
    expect((await post(t, `/api/v1/accounts/${other.id}/note`, accounts.token, { comment: "x" })).status).toBe(200);
  });
});

describe("GET /api/v1/accounts/familiar_followers", () => {
  test("the accounts you follow that follow each one, in the id[] and the plain id forms", async () => {
    const [viewer, friend, target] = [await newUser(t, "ff"), await newUser(t, "ff"), await newUser(t, "ff")];
    await post(t, `/api/v1/accounts/${friend.id}/follow`, viewer.token);
    await post(t, `/api/v1/accounts/${target.id}/follow`, friend.token);
    const res = await get(t, `/api/v1/accounts/familiar_followers?id[]=${target.id}&id[]=${friend.id}`, viewer.token);
    expect(res.status).toBe(200);
    expect(res.body.map((entry: any) => [entry.id, entry.accounts.map((a: any) => a.id)])).toEqual([[target.id, [friend.id]], [friend.id, []]]);
    expect((await get(t, `/api/v1/accounts/familiar_followers?id=${target.id}`, viewer.token)).body[0].accounts[0].id).toBe(friend.id);
  });

  test("masto.js's top-level list (`0=…`) is a hash of odd names, as Rails reads it: an empty answer, not a 422", async () => {
    const res = await get(t, `/api/v1/accounts/familiar_followers?0=${other.id}`, me.token);
    expect(res).toMatchObject({ status: 200, body: [] });
  });
});
