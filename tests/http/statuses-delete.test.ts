// DELETE /api/v1/statuses/:id: instant answer with the source text, gone from every read path at once,
// the rest of the removal in the `status.removed` job.
import { afterEach, describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import { signedInUser } from "../helpers/clients.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { getStatus } from "../../src/store/statuses.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

const { t, alice, bob } = seededWorld({ users: ["alice", "bob"] });
afterEach(() => t.deps.jobs.resume());

const del = (id: string, user: User) => call(t, "DELETE", `/api/v1/statuses/${id}`, user.token);

describe("DELETE /api/v1/statuses/:id", () => {
  test("answers with the status and its source text instead of content", async () => {
    const status = await postStatus(t, alice, { status: "to be #deleted, see https://example.invalid", spoiler_text: "cw" });
    const res = await del(status.id, alice);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(status.id);
    expect(res.body.text).toBe("to be #deleted, see https://example.invalid");
    expect(res.body).not.toHaveProperty("content");
    expect(res.body.spoiler_text).toBe("cw");
    expect(res.body.tags).toEqual(status.tags);
    expect(res.body.application).toEqual(status.application);
  });

  test("is gone from every read path at once, before the removal job has run", async () => {
    const parent = await postStatus(t, alice, "parent");
    const status = await postStatus(t, alice, { status: "reply to delete", in_reply_to_id: parent.id });
    await post(t, `/api/v1/statuses/${status.id}/favourite`, bob.token);
    await post(t, `/api/v1/statuses/${status.id}/bookmark`, bob.token);
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    t.deps.jobs.pause();
    expect((await del(status.id, alice)).status).toBe(200);

    expect((await get(t, `/api/v1/statuses/${status.id}`)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${reblog.id}`, bob.token)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${status.id}/context`)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses?id[]=${status.id}`)).body).toEqual([]);
    expect((await get(t, `/api/v1/statuses/${parent.id}/context`)).body.descendants).toEqual([]);
    const aliceList = (await get(t, `/api/v1/accounts/${alice.id}/statuses`)).body.map((s: any) => s.id);
    expect(aliceList).not.toContain(status.id);
    const bobList = (await get(t, `/api/v1/accounts/${bob.id}/statuses`)).body.map((s: any) => s.id);
    expect(bobList).not.toContain(reblog.id);
    expect((await get(t, "/api/v1/favourites", bob.token)).body).toEqual([]);
    expect((await get(t, "/api/v1/bookmarks", bob.token)).body).toEqual([]);
    expect((await post(t, `/api/v1/statuses/${status.id}/favourite`, bob.token)).status).toBe(404);
    expect((await post(t, "/api/v1/statuses", bob.token, { status: "late reply", in_reply_to_id: status.id })).status).toBe(404);
    // The job is still waiting.
    expect(t.deps.jobs.stats().pending).toBeGreaterThan(0);
    expect(getStatus(t.deps.store, normaliseId(status.id)!)).toBeDefined();

    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    expect(getStatus(t.deps.store, normaliseId(status.id)!)).toBeUndefined();
    expect(getStatus(t.deps.store, normaliseId(reblog.id)!)).toBeUndefined();
    expect((await get(t, `/api/v1/statuses/${parent.id}`)).body.replies_count).toBe(0);
    const notes = notificationsBetween(t.deps.store, normaliseId(alice.id)!, normaliseId(bob.id)!);
    expect(notes.filter((n) => n.statusId === normaliseId(status.id))).toEqual([]);
  });

  test("the account's statuses_count drops at once", async () => {
    const carol = await newUser(t, "carol");
    const one = await postStatus(t, carol, "one");
    await postStatus(t, carol, "two");
    t.deps.jobs.pause();
    const res = await del(one.id, carol);
    expect((await get(t, `/api/v1/accounts/${carol.id}`)).body.statuses_count).toBe(1);
    expect(res.body.account.statuses_count).toBe(1);
  });

  test("someone else's status: 404 whether visible or not, as Mastodon answers; the status stays", async () => {
    const status = await postStatus(t, alice, "mine");
    expect(await del(status.id, bob)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    const hidden = await postStatus(t, alice, { status: "secret", visibility: "private" });
    expect(await del(hidden.id, bob)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, `/api/v1/statuses/${status.id}`)).status).toBe(200);
  });

  test("a moderator may delete anyone's status, even one it cannot see", async () => {
    const moderator = await signedInUser(t, "moddy", undefined, { role: "Moderator" });
    const status = await postStatus(t, alice, { status: "against the rules", visibility: "private" });
    const res = await del(status.id, moderator);
    expect(res.status).toBe(200);
    expect(res.body.text).toBe("against the rules");
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(404);
  });

  test("deleting twice, unknown and malformed ids: 404", async () => {
    const status = await postStatus(t, alice, "twice");
    expect((await del(status.id, alice)).status).toBe(200);
    expect((await del(status.id, alice)).status).toBe(404);
    expect((await del("123", alice)).status).toBe(404);
    expect((await del("x!y", alice)).status).toBe(404);
  });

  test("deleting your reblog undoes it", async () => {
    const status = await postStatus(t, alice, "boost me");
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    const res = await del(reblog.id, bob);
    expect(res.status).toBe(200);
    expect(res.body.reblog.id).toBe(status.id);
    const after = (await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body;
    expect([after.reblogs_count, after.reblogged]).toEqual([0, false]);
    await t.deps.jobs.drain();
  });

  test("replies survive their parent's deletion", async () => {
    await follow(t, bob, alice);
    const parent = await postStatus(t, alice, "parent");
    const reply = await postStatus(t, bob, { status: "child", in_reply_to_id: parent.id });
    await del(parent.id, alice);
    await t.deps.jobs.drain();
    const res = await get(t, `/api/v1/statuses/${reply.id}`);
    expect(res.status).toBe(200);
    expect(res.body.in_reply_to_id).toBe(parent.id);
    expect((await get(t, `/api/v1/statuses/${reply.id}/context`)).body.ancestors).toEqual([]);
  });

  test("scopes: read-only 403, no token 401", async () => {
    const status = await postStatus(t, alice, "keep");
    const reader = await newUser(t, "reader", "read");
    expect((await del(status.id, reader)).status).toBe(403);
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}`)).status).toBe(401);
  });
});
