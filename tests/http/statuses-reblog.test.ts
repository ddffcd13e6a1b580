// Reblogs: POST …/reblog (with visibility), …/unreblog, GET …/reblogged_by.
import { afterEach, describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { block, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

const { t, alice, bob } = seededWorld({ users: ["alice", "bob"] });
afterEach(() => t.deps.jobs.resume());

const reblog = (id: string, user: User, json: unknown = {}) => post(t, `/api/v1/statuses/${id}/reblog`, user.token, json);
const unreblog = (id: string, user: User) => post(t, `/api/v1/statuses/${id}/unreblog`, user.token);
const reblogNotes = (id: string) =>
  notificationsBetween(t.deps.store, normaliseId(alice.id)!, normaliseId(bob.id)!).filter((n) => n.type === "reblog" && n.statusId === normaliseId(id));

describe("reblog", () => {
  test("returns the wrapper with the original nested; counters and flags follow", async () => {
    const status = await postStatus(t, alice, "boost me");
    const res = await reblog(status.id, bob);
    expect(res.status).toBe(200);
    const wrapper = res.body;
    expect(wrapper.id).not.toBe(status.id);
    expect(wrapper.account.id).toBe(bob.id);
    expect(wrapper.content).toBe("");
    expect(wrapper.reblog.id).toBe(status.id);
    expect(wrapper.reblog.reblogged).toBe(true);
    expect(wrapper.reblog.reblogs_count).toBe(1);
    expect(wrapper.reblogged).toBe(true);
    expect(wrapper.application).toBeNull();
    expect(wrapper).not.toHaveProperty("pinned");
    expect(wrapper.uri).toEndWith(`/statuses/${wrapper.id}/activity`);
    expect(reblogNotes(status.id).length).toBe(1);
    const original = (await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body;
    expect([original.reblogs_count, original.reblogged]).toEqual([1, true]);
    expect((await get(t, `/api/v1/statuses/${wrapper.id}`)).body.reblog.id).toBe(status.id);
  });

  test("reblogging twice returns the existing reblog", async () => {
    const status = await postStatus(t, alice, "twice");
    const first = await reblog(status.id, bob);
    const second = await reblog(status.id, bob);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.reblog.reblogs_count).toBe(1);
  });

  test("reblogging the wrapper reblogs the original", async () => {
    const status = await postStatus(t, alice, "wrapped");
    const carol = await newUser(t, "carol");
    const wrapper = (await reblog(status.id, bob)).body;
    const res = await reblog(wrapper.id, carol);
    expect(res.body.reblog.id).toBe(status.id);
    expect(res.body.reblog.reblogs_count).toBe(2);
  });

  test("visibility param sets who sees the boost", async () => {
    const status = await postStatus(t, alice, "quietly");
    const res = await reblog(status.id, bob, { visibility: "unlisted" });
    expect(res.body.visibility).toBe("unlisted");
    const stranger = await newUser(t, "stranger");
    const status2 = await postStatus(t, alice, "for followers of bob");
    const privateBoost = (await reblog(status2.id, bob, { visibility: "private" })).body;
    expect(privateBoost.visibility).toBe("private");
    expect((await get(t, `/api/v1/statuses/${privateBoost.id}`, stranger.token)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${privateBoost.id}`, alice.token)).status).toBe(404);
    await follow(t, stranger, bob);
    expect((await get(t, `/api/v1/statuses/${privateBoost.id}`, stranger.token)).status).toBe(200);
    expect((await reblog(status.id, bob, { visibility: "direct" })).status).toBe(422);
    expect((await reblog(status.id, bob, { visibility: "everyone" })).status).toBe(422);
  });

  test("a private status: the generic 422, even for its author or a follower", async () => {
    await follow(t, bob, alice);
    const status = await postStatus(t, alice, { status: "followers only", visibility: "private" });
    for (const user of [bob, alice]) {
      const res = await reblog(status.id, user);
      expect(res.status).toBe(422);
      expect(typeof res.body.error).toBe("string");
    }
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).body.reblogs_count).toBe(0);
  });

  test("a direct status: 403; a status the caller cannot see: 404", async () => {
    const direct = await postStatus(t, alice, { status: `psst @${bob.username}`, visibility: "direct" });
    expect(await reblog(direct.id, bob)).toMatchObject({ status: 403, body: { error: "This action is not allowed" } });
    const stranger = await newUser(t, "nosy");
    expect(await reblog(direct.id, stranger)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await reblog("31337", bob)).status).toBe(404);
    expect((await reblog("not-an-id", bob)).status).toBe(404);
  });

  test("blocks: a blocked booster gets 404, a blocking one 403", async () => {
    const dave = await newUser(t, "dave");
    const erin = await newUser(t, "erin");
    const status = await postStatus(t, dave, "no boosts from erin");
    await block(t, erin, dave);
    expect((await reblog(status.id, erin)).status).toBe(403);
    const status2 = await postStatus(t, erin, "hello");
    expect((await reblog(status2.id, dave)).status).toBe(404);
  });

  test("scopes: read-only token 403, app token 422, no token 401", async () => {
    const status = await postStatus(t, alice, "scoped");
    const reader = await newUser(t, "reader", "read");
    expect((await reblog(status.id, reader)).status).toBe(403);
    expect((await post(t, `/api/v1/statuses/${status.id}/reblog`)).status).toBe(401);
  });
});

describe("unreblog", () => {
  test("answers with the original, reblogged false and the count already lowered", async () => {
    const status = await postStatus(t, alice, "undo me");
    const wrapper = (await reblog(status.id, bob)).body;
    t.deps.jobs.pause();
    const res = await unreblog(status.id, bob);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(status.id);
    expect([res.body.reblogged, res.body.reblogs_count]).toEqual([false, 0]);
    expect((await get(t, `/api/v1/statuses/${wrapper.id}`)).status).toBe(404);
    expect((await get(t, `/api/v1/accounts/${bob.id}/statuses`)).body.map((s: any) => s.id)).not.toContain(wrapper.id);
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    expect(reblogNotes(status.id)).toEqual([]);
  });

  test("works when not reblogged, and by the wrapper's id", async () => {
    const status = await postStatus(t, alice, "never boosted");
    expect((await unreblog(status.id, bob)).body.reblogged).toBe(false);
    const wrapper = (await reblog(status.id, bob)).body;
    const res = await unreblog(wrapper.id, bob);
    expect(res.body.id).toBe(status.id);
    expect(res.body.reblogged).toBe(false);
  });

  test("reblogging again right after is consistent", async () => {
    const status = await postStatus(t, alice, "again");
    await reblog(status.id, bob);
    t.deps.jobs.pause();
    await unreblog(status.id, bob);
    const again = await reblog(status.id, bob);
    expect(again.body.reblog.reblogs_count).toBe(1);
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    const after = (await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body;
    expect([after.reblogged, after.reblogs_count]).toEqual([true, 1]);
    expect((await get(t, `/api/v1/statuses/${again.body.id}`)).status).toBe(200);
    expect(reblogNotes(status.id).length).toBe(1);
  });
});

describe("reblogged_by", () => {
  test("pages by the reblog's id with Link headers", async () => {
    const status = await postStatus(t, alice, "popular");
    const boosters: User[] = [];
    for (let i = 0; i < 5; i++) {
      const user = await newUser(t, "fan");
      boosters.push(user);
      await reblog(status.id, user);
    }
    const all = await get(t, `/api/v1/statuses/${status.id}/reblogged_by`);
    expect(all.status).toBe(200);
    expect(all.body.map((a: any) => a.id)).toEqual(boosters.map((u) => u.id).reverse());
    const page = await get(t, `/api/v1/statuses/${status.id}/reblogged_by?limit=2`);
    expect(page.body.map((a: any) => a.id)).toEqual([boosters[4]!.id, boosters[3]!.id]);
    const link = page.headers.get("link")!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="prev"');
    expect(link).toContain("since_id=");
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!.replace(t.deps.config.url, "");
    expect((await get(t, next)).body.map((a: any) => a.id)).toEqual([boosters[2]!.id, boosters[1]!.id]);
    // The cursor is the reblog's id, not the account's.
    expect(next).not.toContain(`max_id=${boosters[3]!.id}`);
    await unreblog(status.id, boosters[4]!);
    expect((await get(t, `/api/v1/statuses/${status.id}/reblogged_by`)).body.length).toBe(4);
  });

  test("404 for a status the caller may not see", async () => {
    const status = await postStatus(t, alice, { status: "hidden", visibility: "private" });
    const stranger = await newUser(t, "outsider");
    expect((await get(t, `/api/v1/statuses/${status.id}/reblogged_by`, stranger.token)).status).toBe(404);
  });
});
