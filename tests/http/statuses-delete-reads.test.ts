// A deleted status (or an undone reblog) is gone from every read path in the request that deletes it, while
// the `status.removed` job has not run yet: single and batch reads, threads (as ancestor and descendant),
// account lists, favourites and bookmarks, favourited_by and reblogged_by, every timeline and the reblogs
// of it there, and interactions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, carol] = [await newUser(t, "alice"), await newUser(t, "bob"), await newUser(t, "carol")];
  await follow(t, bob, alice);
  await follow(t, carol, bob);
}, 60_000);
afterAll(() => t.close());

const ids = (body: { id: string }[]) => body.map((s) => s.id);
const del = (id: string, user: User) => call(t, "DELETE", `/api/v1/statuses/${id}`, user.token);

describe("a deleted status is gone from every read path before its removal job runs", () => {
  test("timelines, lists around it, threads and interactions", async () => {
    const list = (await post(t, "/api/v1/lists", bob.token, { title: "alice" })).body;
    expect((await post(t, `/api/v1/lists/${list.id}/accounts`, bob.token, { account_ids: [alice.id] })).status).toBe(200);
    const parent = await postStatus(t, alice, "the root of it");
    const status = await postStatus(t, alice, { status: "soon gone #vanishing", in_reply_to_id: parent.id });
    const reply = await postStatus(t, bob, { status: "an answer", in_reply_to_id: status.id });
    await post(t, `/api/v1/statuses/${status.id}/favourite`, bob.token);
    await post(t, `/api/v1/statuses/${status.id}/bookmark`, bob.token);
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    await t.deps.jobs.drain();
    // Everything shows it before the delete.
    expect(ids((await get(t, "/api/v1/timelines/home", bob.token)).body)).toContain(status.id);
    expect(ids((await get(t, "/api/v1/timelines/home", carol.token)).body)).toContain(reblog.id);
    expect(ids((await get(t, "/api/v1/timelines/tag/vanishing")).body)).toEqual([status.id]);
    expect(ids((await get(t, `/api/v1/timelines/list/${list.id}`, bob.token)).body)).toContain(status.id);

    t.deps.jobs.pause();
    try {
      expect((await del(status.id, alice)).status).toBe(200);
      for (const token of [undefined, alice.token, bob.token]) {
        expect((await get(t, `/api/v1/statuses/${status.id}`, token)).status).toBe(404);
        expect((await get(t, `/api/v1/statuses/${reblog.id}`, token)).status).toBe(404);
        expect((await get(t, `/api/v1/statuses?id[]=${status.id}&id[]=${reblog.id}&id[]=${parent.id}`, token)).body.map((s: any) => s.id)).toEqual([parent.id]);
        for (const path of ["context", "card", "favourited_by", "reblogged_by"]) {
          expect((await get(t, `/api/v1/statuses/${status.id}/${path}`, token)).status).toBe(404);
        }
        // As descendant of its parent, and as ancestor of its reply.
        expect((await get(t, `/api/v1/statuses/${parent.id}/context`, token)).body.descendants).toEqual([]);
        expect((await get(t, `/api/v1/statuses/${reply.id}/context`, token)).body.ancestors).toEqual([]);
        expect(ids((await get(t, `/api/v1/accounts/${alice.id}/statuses`, token)).body)).not.toContain(status.id);
        expect(ids((await get(t, `/api/v1/accounts/${bob.id}/statuses`, token)).body)).not.toContain(reblog.id);
        expect(ids((await get(t, "/api/v1/timelines/public", token)).body)).not.toContain(status.id);
        expect((await get(t, "/api/v1/timelines/tag/vanishing", token)).body).toEqual([]);
      }
      expect(ids((await get(t, "/api/v1/timelines/home", bob.token)).body)).not.toContain(status.id);
      expect(ids((await get(t, "/api/v1/timelines/home", alice.token)).body)).not.toContain(status.id);
      expect(ids((await get(t, "/api/v1/timelines/home", carol.token)).body)).not.toContain(reblog.id);
      expect(ids((await get(t, `/api/v1/timelines/list/${list.id}`, bob.token)).body)).not.toContain(status.id);
      expect((await get(t, "/api/v1/favourites", bob.token)).body).toEqual([]);
      expect((await get(t, "/api/v1/bookmarks", bob.token)).body).toEqual([]);
      for (const action of ["favourite", "unfavourite", "reblog", "unreblog", "bookmark", "unbookmark", "pin"]) {
        const res = await post(t, `/api/v1/statuses/${status.id}/${action}`, action === "pin" ? alice.token : bob.token);
        expect(res).toMatchObject({ status: 404, body: { error: "Record not found" } });
      }
      expect((await get(t, `/api/v1/statuses/${parent.id}`)).status).toBe(200);
    } finally {
      t.deps.jobs.resume();
    }
    // The job lowers the parent's reply counter (as Mastodon's removal worker does).
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${parent.id}`)).body.replies_count).toBe(0);
  });

  test("an undone reblog leaves its followers' home timelines and the reblogger's list at once", async () => {
    const status = await postStatus(t, alice, "boost then regret");
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    await t.deps.jobs.drain();
    expect(ids((await get(t, "/api/v1/timelines/home", carol.token)).body)).toContain(reblog.id);
    t.deps.jobs.pause();
    try {
      expect((await post(t, `/api/v1/statuses/${status.id}/unreblog`, bob.token)).body.reblogged).toBe(false);
      expect(ids((await get(t, "/api/v1/timelines/home", carol.token)).body)).not.toContain(reblog.id);
      expect((await get(t, `/api/v1/statuses/${reblog.id}`)).status).toBe(404);
      expect(ids((await get(t, `/api/v1/accounts/${bob.id}/statuses`)).body)).not.toContain(reblog.id);
      expect((await get(t, `/api/v1/statuses/${status.id}/reblogged_by`)).body).toEqual([]);
    } finally {
      t.deps.jobs.resume();
    }
  });
});
