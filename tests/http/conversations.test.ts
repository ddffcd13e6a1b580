// Conversations: built from direct statuses by the conversations subscriber; GET /api/v1/conversations (paged by
// last status), POST /:id/read and /:id/unread, DELETE /:id (for the viewer only); blocks, mutes and deletions; the `direct`
// stream's `conversation` event; other people's conversations and tokens without the scopes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { streamHub } from "../../src/http/streaming/hub.ts";
import type { StreamClient } from "../../src/domain/streaming/hub.ts";
import { block, call, get, mute, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function conversations(user: User, query = "") {
  await t.deps.jobs.drain();
  const res = await get(t, `/api/v1/conversations${query}`, user.token);
  expect(res.status).toBe(200);
  return res;
}

const dm = (from: User, to: User[], text = "psst", extra: Record<string, unknown> = {}) =>
  postStatus(t, from, { status: `${to.map((u) => `@${u.username}`).join(" ")} ${text}`, visibility: "direct", ...extra });

describe("what a direct status makes", () => {
  test("the author's conversation is read, the recipient's unread; each lists the others", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    const status = await dm(alice, [bob]);
    const mine = (await conversations(alice)).body;
    const theirs = (await conversations(bob)).body;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ unread: false, accounts: [{ id: bob.id }], last_status: { id: status.id, visibility: "direct" } });
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({ unread: true, accounts: [{ id: alice.id }], last_status: { id: status.id } });
    expect(Object.keys(theirs[0]).sort()).toEqual(["accounts", "id", "last_status", "unread"]);
  });

  test("a reply joins the thread's conversation and makes it unread for the others; a new participant joins it", async () => {
    const [alice, bob, carol] = [await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c")];
    const first = await dm(alice, [bob]);
    const before = (await conversations(alice)).body[0];
    const reply = await dm(bob, [alice, carol], "and carol", { in_reply_to_id: first.id });
    const [mine] = (await conversations(alice)).body;
    expect((await conversations(alice)).body).toHaveLength(1);
    expect(mine).toMatchObject({ id: before.id, unread: true, last_status: { id: reply.id } });
    expect(mine.accounts.map((a: { id: string }) => a.id).sort()).toEqual([bob.id, carol.id].sort());
    expect((await conversations(bob)).body).toMatchObject([{ unread: false, last_status: { id: reply.id } }]);
    expect((await conversations(carol)).body).toMatchObject([{ unread: true, last_status: { id: reply.id } }]);
  });

  test("a direct status to nobody is a conversation with oneself", async () => {
    const alice = await newUser(t, "c");
    const note = await postStatus(t, alice, { status: "a note to self", visibility: "direct" });
    expect((await conversations(alice)).body).toMatchObject([{ unread: false, accounts: [{ id: alice.id }], last_status: { id: note.id } }]);
  });

  test("public, unlisted and private statuses make none", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    for (const visibility of ["public", "unlisted", "private"]) await dm(alice, [bob], "hi", { visibility });
    expect((await conversations(alice)).body).toEqual([]);
    expect((await conversations(bob)).body).toEqual([]);
  });

  test("a recipient who blocks or mutes the author gets none; the author still has theirs", async () => {
    const [alice, blocker, muter] = [await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c")];
    await block(t, blocker, alice);
    await mute(t, muter, alice);
    await dm(alice, [blocker, muter]);
    expect((await conversations(blocker)).body).toEqual([]);
    expect((await conversations(muter)).body).toEqual([]);
    expect((await conversations(alice)).body).toHaveLength(1);
  });

  test("a recipient who muted the thread gets no new status in it", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    const first = await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    expect((await post(t, `/api/v1/statuses/${first.id}/mute`, bob.token)).body.muted).toBe(true);
    await post(t, `/api/v1/conversations/${theirs.id}/read`, bob.token);
    await dm(alice, [bob], "more", { in_reply_to_id: first.id });
    expect((await conversations(bob)).body).toMatchObject([{ unread: false, last_status: { id: first.id } }]);
  });

  test("an author who blocks a recipient later hides the conversation from them", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    await block(t, alice, bob);
    expect((await conversations(bob)).body).toEqual([]);
    expect((await post(t, `/api/v1/conversations/${theirs.id}/read`, bob.token)).status).toBe(404);
  });
});

describe("reading, removing, deleting", () => {
  test("read marks it read for the viewer only", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    const res = await post(t, `/api/v1/conversations/${theirs.id}/read`, bob.token);
    expect(res).toMatchObject({ status: 200, body: { id: theirs.id, unread: false, accounts: [{ id: alice.id }] } });
    expect((await conversations(bob)).body[0].unread).toBe(false);
  });

  test("unread marks it unread again (masto.js 8), for the viewer only; nobody else's", async () => {
    const [alice, bob, mallory] = [await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c")];
    await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    await post(t, `/api/v1/conversations/${theirs.id}/read`, bob.token);
    const res = await post(t, `/api/v1/conversations/${theirs.id}/unread`, bob.token);
    expect(res).toMatchObject({ status: 200, body: { id: theirs.id, unread: true, accounts: [{ id: alice.id }] } });
    expect((await conversations(bob)).body[0].unread).toBe(true);
    expect((await conversations(alice)).body[0].unread).toBe(false);
    expect((await post(t, `/api/v1/conversations/${theirs.id}/unread`, mallory.token)).status).toBe(404);
  });

  test("someone else's conversation id is not found, to read or to remove", async () => {
    const [alice, bob, mallory] = [await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c")];
    await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    expect(await post(t, `/api/v1/conversations/${theirs.id}/read`, mallory.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await call(t, "DELETE", `/api/v1/conversations/${theirs.id}`, mallory.token)).status).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/conversations/not-an-id`, mallory.token)).status).toBe(404);
    expect((await conversations(bob)).body).toMatchObject([{ id: theirs.id, unread: true }]);
  });

  test("DELETE removes it for the viewer only; a later status in the thread brings it back", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    const first = await dm(alice, [bob]);
    const [theirs] = (await conversations(bob)).body;
    expect(await call(t, "DELETE", `/api/v1/conversations/${theirs.id}`, bob.token)).toMatchObject({ status: 200, body: {} });
    expect((await conversations(bob)).body).toEqual([]);
    expect((await conversations(alice)).body).toHaveLength(1);
    expect((await call(t, "DELETE", `/api/v1/conversations/${theirs.id}`, bob.token)).status).toBe(404);
    const again = await dm(alice, [bob], "still there?", { in_reply_to_id: first.id });
    expect((await conversations(bob)).body).toMatchObject([{ unread: true, last_status: { id: again.id } }]);
  });

  test("deleting a status falls back to the one before; deleting the only one removes the conversation", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    const first = await dm(alice, [bob]);
    const second = await dm(alice, [bob], "more", { in_reply_to_id: first.id });
    expect((await call(t, "DELETE", `/api/v1/statuses/${second.id}`, alice.token)).status).toBe(200);
    expect((await conversations(bob)).body).toMatchObject([{ last_status: { id: first.id } }]);
    expect((await call(t, "DELETE", `/api/v1/statuses/${first.id}`, alice.token)).status).toBe(200);
    expect((await conversations(bob)).body).toEqual([]);
    expect((await conversations(alice)).body).toEqual([]);
  });
});

describe("the list", () => {
  test("newest last status first, paged by last status id with Mastodon's links", async () => {
    const [me, a, b, c] = [await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c"), await newUser(t, "c")];
    const one = await dm(a, [me]);
    const two = await dm(b, [me]);
    const three = await dm(c, [me]);
    // A reply moves the oldest thread to the top.
    const four = await dm(a, [me], "bump", { in_reply_to_id: one.id });
    const all = (await conversations(me)).body.map((c: any) => c.last_status.id);
    expect(all).toEqual([four.id, three.id, two.id]);
    const first = await conversations(me, "?limit=2");
    expect(first.body.map((c: any) => c.last_status.id)).toEqual([four.id, three.id]);
    const link = first.headers.get("link")!;
    expect(link).toContain(`max_id=${three.id}>; rel="next"`);
    expect(link).toContain(`min_id=${four.id}>; rel="prev"`);
    const next = await conversations(me, `?limit=2&max_id=${three.id}`);
    expect(next.body.map((c: any) => c.last_status.id)).toEqual([two.id]);
    // A short page has no `next`.
    expect(next.headers.get("link")).not.toContain('rel="next"');
    const newer = await conversations(me, `?min_id=${two.id}&limit=1`);
    expect(newer.body.map((c: any) => c.last_status.id)).toEqual([three.id]);
  });

  test("needs a user token with read:statuses; changes need write:conversations", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    await dm(alice, [bob]);
    expect((await get(t, "/api/v1/conversations")).status).toBe(401);
    const writer = await newUser(t, "c", "write:conversations");
    expect((await get(t, "/api/v1/conversations", writer.token)).status).toBe(403);
    const reader = await newUser(t, "c", "read:statuses");
    expect((await get(t, "/api/v1/conversations", reader.token)).status).toBe(200);
    const [theirs] = (await conversations(bob)).body;
    const bobReader = await newUser(t, "c", "read:statuses");
    expect((await post(t, `/api/v1/conversations/${theirs.id}/read`, bobReader.token)).status).toBe(403);
    expect((await call(t, "DELETE", `/api/v1/conversations/${theirs.id}`, bobReader.token)).status).toBe(403);
  });
});

describe("the direct stream", () => {
  test("sends `conversation` events with each participant's Conversation, and no `update`", async () => {
    const [alice, bob] = [await newUser(t, "c"), await newUser(t, "c")];
    const received: { accountId: string; event: string; payload: any }[] = [];
    const client = (accountId: string): StreamClient => ({
      viewer: { accountId: accountId.padStart(18, "0"), scopes: ["read"], rawToken: "" },
      send: (_stream, event, payload) => received.push({ accountId, event, payload: payload && JSON.parse(payload) }),
      heartbeat: () => {},
      close: () => {},
    });
    const hub = streamHub(t.deps);
    const [forAlice, forBob] = [client(alice.id), client(bob.id)];
    hub.subscribe(forAlice, { name: "direct" });
    hub.subscribe(forBob, { name: "direct" });
    try {
      const status = await dm(alice, [bob]);
      await t.deps.jobs.drain();
      expect(received.map((r) => [r.accountId, r.event]).sort()).toEqual([[alice.id, "conversation"], [bob.id, "conversation"]].sort());
      const toBob = received.find((r) => r.accountId === bob.id)!.payload;
      expect(toBob).toMatchObject({ unread: true, accounts: [{ id: alice.id }], last_status: { id: status.id } });
      expect(toBob).toEqual((await conversations(bob)).body[0]);
    } finally {
      hub.disconnect(forAlice);
      hub.disconnect(forBob);
    }
  });
});
