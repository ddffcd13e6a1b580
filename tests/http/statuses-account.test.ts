// GET /api/v1/accounts/:id/statuses with its filters and paging; pins; bookmarks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let s: Record<string, any> = {};

const ids = (list: any[]) => list.map((x) => x.id);
const statusesOf = (user: User, query = "", viewer?: User) => get(t, `/api/v1/accounts/${user.id}/statuses${query}`, viewer?.token);

beforeAll(async () => {
  t = await startTestApp();
  alice = await newUser(t, "alice");
  bob = await newUser(t, "bob");
  const other = await postStatus(t, bob, "bob's post");
  s.first = await postStatus(t, alice, "first #Cats");
  s.selfReply = await postStatus(t, alice, { status: "continuing my thread", in_reply_to_id: s.first.id });
  s.reply = await postStatus(t, alice, { status: "replying to bob", in_reply_to_id: other.id });
  s.reblog = (await post(t, `/api/v1/statuses/${other.id}/reblog`, alice.token)).body;
  s.private = await postStatus(t, alice, { status: "followers #cats", visibility: "private" });
  s.direct = await postStatus(t, alice, { status: `hey @${bob.username}`, visibility: "direct" });
  s.last = await postStatus(t, alice, "last");
}, 60_000);
afterAll(() => t.close());

describe("GET /api/v1/accounts/:id/statuses", () => {
  test("newest first; what each viewer may see", async () => {
    const all = [s.last, s.direct, s.private, s.reblog, s.reply, s.selfReply, s.first];
    expect(ids((await statusesOf(alice, "", alice)).body)).toEqual(ids(all));
    const publicOnes = [s.last, s.reblog, s.reply, s.selfReply, s.first];
    expect(ids((await statusesOf(alice)).body)).toEqual(ids(publicOnes));
    // bob is mentioned in the direct one but does not follow alice
    expect(ids((await statusesOf(alice, "", bob)).body)).toEqual(ids([s.last, s.direct, s.reblog, s.reply, s.selfReply, s.first]));
    const fan = await newUser(t, "fan");
    await follow(t, fan, alice);
    expect(ids((await statusesOf(alice, "", fan)).body)).toEqual(ids([s.last, s.private, s.reblog, s.reply, s.selfReply, s.first]));
  });

  test("filters: exclude_replies keeps self-replies, exclude_reblogs, tagged, only_media", async () => {
    expect(ids((await statusesOf(alice, "?exclude_replies=true")).body)).toEqual(ids([s.last, s.reblog, s.selfReply, s.first]));
    expect(ids((await statusesOf(alice, "?exclude_reblogs=1")).body)).toEqual(ids([s.last, s.reply, s.selfReply, s.first]));
    expect(ids((await statusesOf(alice, "?tagged=cats", alice)).body)).toEqual(ids([s.private, s.first]));
    expect(ids((await statusesOf(alice, "?tagged=CATS")).body)).toEqual(ids([s.first]));
    expect((await statusesOf(alice, "?only_media=true")).body).toEqual([]);
    expect((await get(t, `/api/v1/accounts/${alice.id}/statuses/media`)).body).toEqual([]);
  });

  test("paging with max_id, since_id, min_id and Link headers", async () => {
    const page = await statusesOf(alice, "?limit=2&exclude_reblogs=true");
    expect(ids(page.body)).toEqual(ids([s.last, s.reply]));
    const link = page.headers.get("link")!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next).toContain(`max_id=${s.reply.id}`);
    expect(next).toContain("exclude_reblogs=true");
    expect(link).toContain(`min_id=${s.last.id}`);
    expect(ids((await get(t, next.replace(t.deps.config.url, ""))).body)).toEqual(ids([s.selfReply, s.first]));
    expect(ids((await statusesOf(alice, `?min_id=${s.first.id}&limit=2`)).body)).toEqual(ids([s.reply, s.selfReply]));
    expect(ids((await statusesOf(alice, `?since_id=${s.first.id}&limit=2`)).body)).toEqual(ids([s.last, s.reblog]));
    expect((await statusesOf(alice, "?limit=0")).body).toEqual([]);
    expect((await statusesOf(alice, "?limit=1000")).status).toBe(200);
  });

  test("a blocked viewer gets an empty list; unknown and malformed accounts are 404", async () => {
    const blocked = await newUser(t, "blocked");
    await block(t, alice, blocked);
    expect((await statusesOf(alice, "", blocked)).body).toEqual([]);
    expect(await get(t, "/api/v1/accounts/1234567/statuses")).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, "/api/v1/accounts/abc/statuses")).status).toBe(404);
  });

  test("reblogs of accounts the viewer blocks are left out", async () => {
    const viewer = await newUser(t, "picky");
    await block(t, viewer, bob);
    expect(ids((await statusesOf(alice, "", viewer)).body)).not.toContain(s.reblog.id);
  });
});

describe("pins", () => {
  test("pin, list with pinned=true, unpin", async () => {
    const res = await post(t, `/api/v1/statuses/${s.first.id}/pin`, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.pinned).toBe(true);
    await post(t, `/api/v1/statuses/${s.last.id}/pin`, alice.token);
    expect(ids((await statusesOf(alice, "?pinned=true")).body)).toEqual(ids([s.last, s.first]));
    expect((await get(t, `/api/v1/statuses/${s.first.id}`, alice.token)).body.pinned).toBe(true);
    expect((await get(t, `/api/v1/statuses/${s.first.id}`, bob.token)).body).not.toHaveProperty("pinned");
    const again = await post(t, `/api/v1/statuses/${s.first.id}/pin`, alice.token);
    expect(again.body.pinned).toBe(true);
    const unpinned = await post(t, `/api/v1/statuses/${s.last.id}/unpin`, alice.token);
    expect(unpinned.body.pinned).toBe(false);
    expect(ids((await statusesOf(alice, "?pinned=true")).body)).toEqual(ids([s.first]));
    await post(t, `/api/v1/statuses/${s.first.id}/unpin`, alice.token);
  });

  test("only own, non-reblog, non-direct statuses, at most 5", async () => {
    const other = await postStatus(t, bob, "not yours");
    expect(await post(t, `/api/v1/statuses/${other.id}/pin`, alice.token)).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Someone else's post cannot be pinned" },
    });
    expect((await post(t, `/api/v1/statuses/${s.reblog.id}/pin`, alice.token)).status).toBe(422);
    expect((await post(t, `/api/v1/statuses/${s.direct.id}/pin`, alice.token)).status).toBe(422);
    const carol = await newUser(t, "carol");
    const posts = [];
    for (let i = 0; i < 6; i++) posts.push(await postStatus(t, carol, `pin ${i}`));
    for (let i = 0; i < 5; i++) expect((await post(t, `/api/v1/statuses/${posts[i]!.id}/pin`, carol.token)).status).toBe(200);
    expect(await post(t, `/api/v1/statuses/${posts[5]!.id}/pin`, carol.token)).toMatchObject({
      status: 422,
      body: { error: "Validation failed: You have already pinned the maximum number of posts" },
    });
    const hidden = await postStatus(t, bob, { status: "private", visibility: "private" });
    expect((await post(t, `/api/v1/statuses/${hidden.id}/pin`, alice.token)).status).toBe(404);
    const reader = await newUser(t, "reader", "read write:statuses");
    const own = await postStatus(t, reader, "mine");
    expect((await post(t, `/api/v1/statuses/${own.id}/pin`, reader.token)).status).toBe(403);
  });
});

describe("bookmarks", () => {
  test("bookmark, list paged by bookmark id, unbookmark", async () => {
    const reader = await newUser(t, "bookworm");
    const a = await postStatus(t, bob, "a");
    const b = await postStatus(t, bob, "b");
    const c = await postStatus(t, bob, "c");
    for (const st of [b, a, c]) {
      const res = await post(t, `/api/v1/statuses/${st.id}/bookmark`, reader.token);
      expect(res.body.bookmarked).toBe(true);
    }
    expect((await post(t, `/api/v1/statuses/${a.id}/bookmark`, reader.token)).body.bookmarked).toBe(true);
    const list = await get(t, "/api/v1/bookmarks", reader.token);
    expect(ids(list.body)).toEqual(ids([c, a, b]));
    const page = await get(t, "/api/v1/bookmarks?limit=2", reader.token);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link")!)![1]!.replace(t.deps.config.url, "");
    expect(ids((await get(t, next, reader.token)).body)).toEqual(ids([b]));
    const un = await post(t, `/api/v1/statuses/${a.id}/unbookmark`, reader.token);
    expect(un.body.bookmarked).toBe(false);
    expect(ids((await get(t, "/api/v1/bookmarks", reader.token)).body)).toEqual(ids([c, b]));
    expect((await get(t, "/api/v1/bookmarks")).status).toBe(401);
    const hidden = await postStatus(t, bob, { status: "private", visibility: "private" });
    expect((await post(t, `/api/v1/statuses/${hidden.id}/bookmark`, reader.token)).status).toBe(404);
  });
});
