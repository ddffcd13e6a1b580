// GET /api/v1/statuses/:id/context: ancestors and descendants in thread order, filtered per viewer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, follow, get, mute, newUser, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;
let root: any, a: any, a1: any, b: any, b1: any, privateReply: any;

const ids = (list: any[]) => list.map((s) => s.id);
const context = (id: string, user?: User) => get(t, `/api/v1/statuses/${id}/context`, user?.token);

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, carol] = await Promise.all([newUser(t, "alice"), newUser(t, "bob"), newUser(t, "carol")]);
  await follow(t, carol, bob);
  // root ─ a ─ a1
  //      │   └ a2 (private, by bob)
  //      └ b ─ b1 (by carol)
  root = await postStatus(t, alice, "root");
  a = await postStatus(t, bob, { status: "a", in_reply_to_id: root.id });
  b = await postStatus(t, alice, { status: "b", in_reply_to_id: root.id });
  a1 = await postStatus(t, alice, { status: "a1", in_reply_to_id: a.id });
  privateReply = await postStatus(t, bob, { status: "a2", in_reply_to_id: a.id, visibility: "private" });
  b1 = await postStatus(t, carol, { status: "b1", in_reply_to_id: b.id, visibility: "public" });
}, 60_000);
afterAll(() => t.close());

describe("context", () => {
  test("a status without in_reply_to_id has no ancestors; descendants come depth-first", async () => {
    const res = await context(root.id, carol);
    expect(res.status).toBe(200);
    expect(res.body.ancestors).toEqual([]);
    expect(ids(res.body.descendants)).toEqual([a.id, a1.id, privateReply.id, b.id, b1.id]);
  });

  test("ancestors run from the thread's root down to the parent", async () => {
    const res = await context(a1.id);
    expect(ids(res.body.ancestors)).toEqual([root.id, a.id]);
    expect(res.body.descendants).toEqual([]);
    expect(ids((await context(b1.id)).body.ancestors)).toEqual([root.id, b.id]);
  });

  test("statuses the viewer may not see are left out", async () => {
    expect(ids((await context(root.id)).body.descendants)).toEqual([a.id, a1.id, b.id, b1.id]);
    expect(ids((await context(root.id, alice)).body.descendants)).toEqual([a.id, a1.id, b.id, b1.id]);
    expect(ids((await context(root.id, bob)).body.descendants)).toEqual([a.id, a1.id, privateReply.id, b.id, b1.id]);
  });

  test("the viewer's blocks and mutes filter the thread; the rest of it stays", async () => {
    const dave = await newUser(t, "dave");
    await mute(t, dave, carol);
    expect(ids((await context(root.id, dave)).body.descendants)).toEqual([a.id, a1.id, b.id]);
    await block(t, dave, bob);
    expect(ids((await context(root.id, dave)).body.descendants)).toEqual([a1.id, b.id]);
    expect(ids((await context(a1.id, dave)).body.ancestors)).toEqual([root.id]);
  });

  test("an author who blocks the viewer disappears from the viewer's threads", async () => {
    const erin = await newUser(t, "erin");
    await block(t, carol, erin);
    expect(ids((await context(root.id, erin)).body.descendants)).toEqual([a.id, a1.id, b.id]);
    expect((await context(b1.id, erin)).status).toBe(404);
  });

  test("a status the caller may not see: 404; unknown id: 404", async () => {
    expect(await context(privateReply.id)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await context("424242")).status).toBe(404);
    expect((await context("nope")).status).toBe(404);
  });

  test("anonymous callers get a thread capped at 40 ancestors", async () => {
    let parent = await postStatus(t, alice, "deep root");
    const chain = [parent.id];
    for (let i = 0; i < 45; i++) {
      parent = await postStatus(t, alice, { status: `level ${i}`, in_reply_to_id: parent.id });
      chain.push(parent.id);
    }
    const leaf = chain.at(-1)!;
    expect((await context(leaf)).body.ancestors.length).toBe(40);
    expect(ids((await context(leaf, alice)).body.ancestors)).toEqual(chain.slice(0, -1));
    expect((await context(chain[0]!)).body.descendants.length).toBe(20);
    expect((await context(chain[0]!, alice)).body.descendants.length).toBe(45);
  });

  test("anonymous callers get at most 60 descendants; signed-in ones all of them", async () => {
    const top = await postStatus(t, alice, "popular");
    const replies: string[] = [];
    for (let i = 0; i < 65; i++) replies.push((await postStatus(t, bob, { status: `reply ${i}`, in_reply_to_id: top.id })).id);
    expect(ids((await context(top.id)).body.descendants)).toEqual(replies.slice(0, 60));
    expect(ids((await context(top.id, carol)).body.descendants)).toEqual(replies);
  });
});
