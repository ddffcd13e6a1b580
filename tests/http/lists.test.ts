// Lists: CRUD, members (followed accounts only), GET /api/v1/timelines/list/:id with replies_policy, and
// GET /api/v1/accounts/:id/lists.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { call, follow, get, newUser, post, postStatus, timeline, type User } from "./timelines-helpers.ts";

let t: TestApp;
let owner: User;

beforeAll(async () => {
  t = await startTestApp();
  owner = await newUser(t, "l");
});
afterAll(() => t.close());

const create = (user: User, json: unknown) => post(t, "/api/v1/lists", user.token, json);

describe("lists", () => {
  test("create, read, update and delete", async () => {
    const created = await create(owner, { title: "Friends" });
    expect(created).toMatchObject({ status: 200, body: { title: "Friends", replies_policy: "list", exclusive: false } });
    expect(Object.keys(created.body).sort()).toEqual(["exclusive", "id", "replies_policy", "title"]);
    const id = created.body.id;
    expect((await get(t, `/api/v1/lists/${id}`, owner.token)).body).toEqual(created.body);
    const updated = await call(t, "PUT", `/api/v1/lists/${id}`, owner.token, { title: "Close friends", replies_policy: "followed", exclusive: "true" });
    expect(updated).toMatchObject({ status: 200, body: { id, title: "Close friends", replies_policy: "followed", exclusive: true } });
    expect((await call(t, "PUT", `/api/v1/lists/${id}`, owner.token, { replies_policy: "none" })).body).toMatchObject({ title: "Close friends", replies_policy: "none" });
    expect((await get(t, "/api/v1/lists", owner.token)).body.map((l: any) => l.id)).toContain(id);
    expect(await call(t, "DELETE", `/api/v1/lists/${id}`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect(await get(t, `/api/v1/lists/${id}`, owner.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, "/api/v1/lists", owner.token)).body.map((l: any) => l.id)).not.toContain(id);
  });

  test("form-encoded bodies work too", async () => {
    const res = await t.request("/api/v1/lists", { method: "POST", token: owner.token, form: { title: "Form", replies_policy: "none", exclusive: "1" } });
    expect(await res.json()).toMatchObject({ title: "Form", replies_policy: "none", exclusive: true });
  });

  test("bad input", async () => {
    expect(await create(owner, {})).toMatchObject({ status: 422, body: { error: "Validation failed: Title can't be blank" } });
    expect(await create(owner, { title: "   " })).toMatchObject({ status: 422, body: { error: "Validation failed: Title can't be blank" } });
    expect(await create(owner, { title: "x".repeat(257) })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Title is too long (maximum is 256 characters)" },
    });
    expect((await create(owner, { title: "x".repeat(256) })).status).toBe(200);
    expect(await create(owner, { title: "ok", replies_policy: "everyone" })).toMatchObject({ status: 422, body: { error: "'everyone' is not a valid replies_policy" } });
    expect((await create(owner, { title: "ok", exclusive: "maybe" })).status).toBe(422);
    const list = (await create(owner, { title: "keep" })).body;
    expect(await call(t, "PUT", `/api/v1/lists/${list.id}`, owner.token, { title: "" })).toMatchObject({ status: 422 });
    expect(await call(t, "PUT", "/api/v1/lists/12345", owner.token, { title: "x" })).toMatchObject({ status: 404 });
    expect(await call(t, "DELETE", "/api/v1/lists/abc", owner.token)).toMatchObject({ status: 404 });
  });

  test("at most 50 lists per account", async () => {
    const busy = await newUser(t, "l");
    for (let i = 0; i < 50; i++) expect((await create(busy, { title: `list ${i}` })).status).toBe(200);
    expect(await create(busy, { title: "one too many" })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: You have reached the maximum number of lists" },
    });
  });

  test("someone else's list does not exist for you", async () => {
    const other = await newUser(t, "l");
    const list = (await create(owner, { title: "Mine" })).body;
    expect((await get(t, `/api/v1/lists/${list.id}`, other.token)).status).toBe(404);
    expect((await call(t, "PUT", `/api/v1/lists/${list.id}`, other.token, { title: "x" })).status).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/lists/${list.id}`, other.token)).status).toBe(404);
    expect((await get(t, `/api/v1/lists/${list.id}/accounts`, other.token)).status).toBe(404);
    expect((await get(t, `/api/v1/timelines/list/${list.id}`, other.token)).status).toBe(404);
    expect((await get(t, `/api/v1/lists/${list.id}`, owner.token)).status).toBe(200);
  });

  test("scopes: read:lists to read, write:lists to change", async () => {
    const reader = await newUser(t, "l", "read:lists");
    expect((await get(t, "/api/v1/lists", reader.token)).status).toBe(200);
    expect(await create(reader, { title: "no" })).toMatchObject({ status: 403, body: { error: "This action is outside the authorized scopes" } });
    const statusesOnly = await newUser(t, "l", "read:statuses");
    expect((await get(t, "/api/v1/lists", statusesOnly.token)).status).toBe(403);
    expect((await get(t, "/api/v1/lists")).status).toBe(401);
  });
});

describe("members", () => {
  test("only followed accounts (and yourself) may be added; unknown accounts are 404", async () => {
    const [friend, stranger] = [await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, owner, friend);
    const list = (await create(owner, { title: "People" })).body;
    const path = `/api/v1/lists/${list.id}/accounts`;
    expect(await post(t, path, owner.token, { account_ids: [stranger.id] })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Account must be a followed account" },
    });
    // All or nothing: the followed friend did not slip in with the stranger.
    expect(await post(t, path, owner.token, { account_ids: [friend.id, stranger.id] })).toMatchObject({ status: 422 });
    expect((await get(t, path, owner.token)).body).toEqual([]);
    expect(await post(t, path, owner.token, { account_ids: ["999999"] })).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect(await post(t, path, owner.token, { account_ids: [friend.id, owner.id] })).toMatchObject({ status: 200, body: {} });
    expect(await post(t, path, owner.token, { account_ids: [friend.id] })).toMatchObject({ status: 200 });
    expect((await get(t, path, owner.token)).body.map((a: any) => a.id).sort()).toEqual([friend.id, owner.id].sort());
    expect((await get(t, `/api/v1/accounts/${friend.id}/lists`, owner.token)).body.map((l: any) => l.id)).toEqual([list.id]);
    expect((await get(t, `/api/v1/accounts/${stranger.id}/lists`, owner.token)).body).toEqual([]);

    expect(await call(t, "DELETE", `${path}?account_ids[]=${friend.id}`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await get(t, path, owner.token)).body.map((a: any) => a.id)).toEqual([owner.id]);
    expect(await call(t, "DELETE", path, owner.token, { account_ids: [owner.id, "42"] })).toMatchObject({ status: 200 });
    expect((await get(t, path, owner.token)).body).toEqual([]);
  });

  test("members are paged by account id (40 by default; limit=0 gives all, without Link)", async () => {
    const lister = await newUser(t, "l");
    const members: User[] = [];
    for (let i = 0; i < 3; i++) {
      const member = await newUser(t, "l");
      await follow(t, lister, member);
      members.push(member);
    }
    const list = (await create(lister, { title: "Paged" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: members.map((m) => m.id) });
    const newestFirst = members.map((m) => m.id).reverse();
    const first = await get(t, `/api/v1/lists/${list.id}/accounts?limit=2`, lister.token);
    expect(first.body.map((a: any) => a.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.headers.get("link")).toContain(`max_id=${newestFirst[1]}>; rel="next"`);
    expect(first.headers.get("link")).toContain(`since_id=${newestFirst[0]}>; rel="prev"`);
    const rest = await get(t, `/api/v1/lists/${list.id}/accounts?limit=2&max_id=${newestFirst[1]}`, lister.token);
    expect(rest.body.map((a: any) => a.id)).toEqual(newestFirst.slice(2));
    const all = await get(t, `/api/v1/lists/${list.id}/accounts?limit=0`, lister.token);
    expect(all.body).toHaveLength(3);
    expect(all.headers.get("link")).toBeNull();
  });

  test("unfollowing takes the account off your lists in the same request; its posts leave the list feed", async () => {
    const [lister, member] = [await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, lister, member);
    const list = (await create(lister, { title: "Temporary" })).body;
    const other = (await create(lister, { title: "Other" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [member.id] });
    await post(t, `/api/v1/lists/${other.id}/accounts`, lister.token, { account_ids: [member.id] });
    await postStatus(t, member, "on the list");
    await t.deps.jobs.drain();
    expect(await timeline(t, `/api/v1/timelines/list/${list.id}`, lister.token)).toHaveLength(1);
    await post(t, `/api/v1/accounts/${member.id}/unfollow`, lister.token);
    // No job has run yet: the membership went with the follow.
    expect((await get(t, `/api/v1/lists/${list.id}/accounts`, lister.token)).body).toEqual([]);
    expect((await get(t, `/api/v1/lists/${other.id}/accounts`, lister.token)).body).toEqual([]);
    expect((await get(t, `/api/v1/accounts/${member.id}/lists`, lister.token)).body).toEqual([]);
    await t.deps.jobs.drain();
    expect(await timeline(t, `/api/v1/timelines/list/${list.id}`, lister.token)).toEqual([]);
  });

  test("removed from followers, or blocked: off the follower's lists at once", async () => {
    const [lister, member, blocker] = [await newUser(t, "l"), await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, lister, member);
    await follow(t, lister, blocker);
    const list = (await create(lister, { title: "Gone" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [member.id, blocker.id] });
    await post(t, `/api/v1/accounts/${lister.id}/remove_from_followers`, member.token);
    await post(t, `/api/v1/accounts/${lister.id}/block`, blocker.token);
    expect((await get(t, `/api/v1/lists/${list.id}/accounts`, lister.token)).body).toEqual([]);
  });
});

describe("list timeline", () => {
  test("members' statuses (back-filled and new), newest first; replies by replies_policy", async () => {
    const [lister, member, followed, other] = [await newUser(t, "l"), await newUser(t, "l"), await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, lister, member);
    await follow(t, lister, followed);
    const before = await postStatus(t, member, "before joining");
    const list = (await create(lister, { title: "Timeline" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [member.id] });
    const path = `/api/v1/timelines/list/${list.id}`;
    expect(await timeline(t, path, lister.token)).toEqual([before.id]);

    const followedPost = await postStatus(t, followed, "not on the list");
    const otherPost = await postStatus(t, other, "a stranger");
    const toFollowed = await postStatus(t, member, { status: `@${followed.username} hi`, in_reply_to_id: followedPost.id });
    const toOther = await postStatus(t, member, { status: `@${other.username} hi`, in_reply_to_id: otherPost.id });
    const plain = await postStatus(t, member, "plain");
    // replies_policy list (default): replies to members only, and the followed account is not one.
    expect(await timeline(t, path, lister.token)).toEqual([plain.id, before.id]);
    await call(t, "PUT", `/api/v1/lists/${list.id}`, lister.token, { replies_policy: "followed" });
    expect(await timeline(t, path, lister.token)).toEqual([plain.id, toFollowed.id, before.id]);
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [followed.id] });
    await call(t, "PUT", `/api/v1/lists/${list.id}`, lister.token, { replies_policy: "list" });
    expect(await timeline(t, path, lister.token)).toContain(toFollowed.id);
    await call(t, "PUT", `/api/v1/lists/${list.id}`, lister.token, { replies_policy: "none" });
    const ids = await timeline(t, path, lister.token);
    expect(ids).not.toContain(toFollowed.id);
    expect(ids).not.toContain(toOther.id);
    expect(ids).toContain(plain.id);
  });

  test("statuses mentioning an account the owner blocks or mutes stay out", async () => {
    const [lister, member, muted] = [await newUser(t, "l"), await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, lister, member);
    await call(t, "POST", `/api/v1/accounts/${muted.id}/mute`, lister.token);
    const list = (await create(lister, { title: "Careful" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [member.id] });
    const plain = await postStatus(t, member, "plain");
    await postStatus(t, member, `hello @${muted.username}`);
    expect(await timeline(t, `/api/v1/timelines/list/${list.id}`, lister.token)).toEqual([plain.id]);
  });

  test("read:lists is needed; deleting a list empties it", async () => {
    const [lister, member] = [await newUser(t, "l"), await newUser(t, "l")];
    await follow(t, lister, member);
    const list = (await create(lister, { title: "Short-lived" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, lister.token, { account_ids: [member.id] });
    await postStatus(t, member, "hello list");
    const [only] = await timeline(t, `/api/v1/timelines/list/${list.id}`, lister.token);
    // A short page has both links; a page past the end has none.
    const page = await get(t, `/api/v1/timelines/list/${list.id}?limit=5`, lister.token);
    expect(page.headers.get("link")).toBe(
      `<http://localhost:3000/api/v1/timelines/list/${list.id}?limit=5&max_id=${only}>; rel="next", ` +
        `<http://localhost:3000/api/v1/timelines/list/${list.id}?limit=5&min_id=${only}>; rel="prev"`,
    );
    const past = await get(t, `/api/v1/timelines/list/${list.id}?max_id=${only}`, lister.token);
    expect([past.body, past.headers.get("link")]).toEqual([[], null]);
    const statusesOnly = await newUser(t, "l", "read:statuses");
    expect((await get(t, `/api/v1/timelines/list/${list.id}`, statusesOnly.token)).status).toBe(403);
    await call(t, "DELETE", `/api/v1/lists/${list.id}`, lister.token);
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/timelines/list/${list.id}`, lister.token)).status).toBe(404);
  });
});
