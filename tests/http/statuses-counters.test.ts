// Stored counters with the job workers on, as users run the server: clean-up jobs write from worker
// threads while requests read and write in the main thread, and no count may drift from the rows it
// counts, before or after the jobs run, nor after a restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { call, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

const WORKERS = { WARREN_JOB_WORKERS: "2" };
let dir: string;
let t: TestApp;
let alice: User;
let bob: User;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-counters-"));
  t = await startTestApp({ ...WORKERS, WARREN_DATA_DIR: dir });
  alice = await newUser(t, "alice");
  bob = await newUser(t, "bob");
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const counts = async (id: string) => {
  const res = await get(t, `/api/v1/statuses/${id}`, alice.token);
  const { replies_count, reblogs_count, favourites_count } = res.body;
  return { replies_count, reblogs_count, favourites_count };
};
const favourite = (id: string) => post(t, `/api/v1/statuses/${id}/favourite`, bob.token);
const unfavourite = (id: string) => post(t, `/api/v1/statuses/${id}/unfavourite`, bob.token);
const reblog = (id: string) => post(t, `/api/v1/statuses/${id}/reblog`, bob.token);
const unreblog = (id: string) => post(t, `/api/v1/statuses/${id}/unreblog`, bob.token);
const remove = (id: string, user: User) => call(t, "DELETE", `/api/v1/statuses/${id}`, user.token);

const ids = {} as Record<"faved" | "replied" | "reblogged" | "refaved", string>;

describe("counters follow their rows while jobs run on worker threads", () => {
  test("favourite, unfavourite, job, favourite again: one favourite, counted once", async () => {
    const status = await postStatus(t, alice, "like me");
    ids.faved = status.id;
    expect((await favourite(status.id)).body.favourites_count).toBe(1);
    expect((await unfavourite(status.id)).body.favourites_count).toBe(0);
    await t.deps.jobs.drain();
    expect(await counts(status.id)).toEqual({ replies_count: 0, reblogs_count: 0, favourites_count: 0 });
    const again = await favourite(status.id);
    expect([again.body.favourited, again.body.favourites_count]).toEqual([true, 1]);
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${status.id}/favourited_by`, alice.token)).body.length).toBe(1);
    expect((await counts(status.id)).favourites_count).toBe(1);
  });

  test("an unfavourite is counted at once, not when its job runs", async () => {
    const status = await postStatus(t, alice, "like me briefly");
    ids.refaved = status.id;
    await favourite(status.id);
    t.deps.jobs.pause();
    try {
      await unfavourite(status.id);
      expect((await counts(status.id)).favourites_count).toBe(0);
      expect((await favourite(status.id)).body.favourites_count).toBe(1);
      expect((await counts(status.id)).favourites_count).toBe(1);
    } finally {
      t.deps.jobs.resume();
    }
    await t.deps.jobs.drain();
    expect((await counts(status.id)).favourites_count).toBe(1);
    expect((await get(t, `/api/v1/statuses/${status.id}/favourited_by`, alice.token)).body.length).toBe(1);
  });

  test("a deleted reply leaves its parent at zero replies; a new one counts", async () => {
    const parent = await postStatus(t, alice, "ask me");
    ids.replied = parent.id;
    const reply = await postStatus(t, bob, { status: "an answer", in_reply_to_id: parent.id });
    expect((await counts(parent.id)).replies_count).toBe(1);
    expect((await remove(reply.id, bob)).status).toBe(200);
    expect((await counts(parent.id)).replies_count).toBe(0);
    await t.deps.jobs.drain();
    expect((await counts(parent.id)).replies_count).toBe(0);
    await postStatus(t, bob, { status: "a better answer", in_reply_to_id: parent.id });
    expect((await counts(parent.id)).replies_count).toBe(1);
  });

  test("reblog, unreblog, job, reblog again: one reblog, counted once", async () => {
    const status = await postStatus(t, alice, "boost me");
    ids.reblogged = status.id;
    expect((await reblog(status.id)).body.reblog.reblogs_count).toBe(1);
    expect((await unreblog(status.id)).body.reblogs_count).toBe(0);
    await t.deps.jobs.drain();
    expect((await counts(status.id)).reblogs_count).toBe(0);
    expect((await reblog(status.id)).body.reblog.reblogs_count).toBe(1);
    await t.deps.jobs.drain();
    expect((await counts(status.id)).reblogs_count).toBe(1);
    expect((await get(t, `/api/v1/statuses/${status.id}/reblogged_by`, alice.token)).body.length).toBe(1);
  });

  test("a reblog removed by the job of its original's deletion is gone for its author too", async () => {
    const carol = await newUser(t, "carol");
    const status = await postStatus(t, alice, "short-lived");
    const wrapper = (await post(t, `/api/v1/statuses/${status.id}/reblog`, carol.token)).body;
    expect((await get(t, `/api/v1/statuses/${wrapper.id}`, carol.token)).status).toBe(200);
    expect((await remove(status.id, alice)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await remove(wrapper.id, carol)).status).toBe(404);
    expect((await get(t, `/api/v1/accounts/${carol.id}`, carol.token)).body.statuses_count).toBe(0);
  });

  test("what was counted is what is stored: the same after a restart", async () => {
    await t.deps.jobs.drain();
    const before = {
      faved: await counts(ids.faved),
      refaved: await counts(ids.refaved),
      replied: await counts(ids.replied),
      reblogged: await counts(ids.reblogged),
    };
    expect(before).toEqual({
      faved: { replies_count: 0, reblogs_count: 0, favourites_count: 1 },
      refaved: { replies_count: 0, reblogs_count: 0, favourites_count: 1 },
      replied: { replies_count: 1, reblogs_count: 0, favourites_count: 0 },
      reblogged: { replies_count: 0, reblogs_count: 1, favourites_count: 0 },
    });
    await t.close();
    t = await startTestApp({ ...WORKERS, WARREN_DATA_DIR: dir });
    expect({
      faved: await counts(ids.faved),
      refaved: await counts(ids.refaved),
      replied: await counts(ids.replied),
      reblogged: await counts(ids.reblogged),
    }).toEqual(before);
  });
});
