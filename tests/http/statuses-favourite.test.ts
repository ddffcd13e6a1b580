// Favourites: POST …/favourite (idempotent), …/unfavourite (answered at once, removal in a job),
// GET …/favourited_by and GET /api/v1/favourites.
import { afterEach, describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import { notificationsBetween } from "../../src/store/notifications.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { block, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

const { t, alice, bob } = seededWorld({ users: ["alice", "bob"] });
afterEach(() => t.deps.jobs.resume());

const favourite = (id: string, user: User) => post(t, `/api/v1/statuses/${id}/favourite`, user.token);
const unfavourite = (id: string, user: User) => post(t, `/api/v1/statuses/${id}/unfavourite`, user.token);
const favNotes = (id: string) =>
  notificationsBetween(t.deps.store, normaliseId(alice.id)!, normaliseId(bob.id)!).filter((n) => n.type === "favourite" && n.statusId === normaliseId(id));

describe("favourite", () => {
  test("marks the status, counts it and notifies the author; twice is the same", async () => {
    const status = await postStatus(t, alice, "like me");
    const res = await favourite(status.id, bob);
    expect(res.status).toBe(200);
    expect([res.body.id, res.body.favourited, res.body.favourites_count]).toEqual([status.id, true, 1]);
    const again = await favourite(status.id, bob);
    expect([again.body.favourited, again.body.favourites_count]).toEqual([true, 1]);
    expect(favNotes(status.id).length).toBe(1);
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).body).toMatchObject({ favourited: false, favourites_count: 1 });
  });

  test("favouriting through a reblog favourites the original", async () => {
    const status = await postStatus(t, alice, "wrapped");
    const carol = await newUser(t, "carol");
    const wrapper = (await post(t, `/api/v1/statuses/${status.id}/reblog`, carol.token)).body;
    const res = await favourite(wrapper.id, bob);
    expect([res.body.id, res.body.favourited]).toEqual([status.id, true]);
  });

  test("invisible: 404; blocked author: 403; scopes", async () => {
    const hidden = await postStatus(t, alice, { status: "private", visibility: "private" });
    expect(await favourite(hidden.id, bob)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await favourite("987654321", bob)).status).toBe(404);
    const dave = await newUser(t, "dave");
    const daves = await postStatus(t, dave, "hi");
    const erin = await newUser(t, "erin");
    await block(t, erin, dave);
    expect(await favourite(daves.id, erin)).toMatchObject({ status: 403, body: { error: "This action is not allowed" } });
    const reader = await newUser(t, "reader", "read");
    expect((await favourite(daves.id, reader)).status).toBe(403);
    const favScoped = await newUser(t, "favscoped", "write:favourites");
    expect((await favourite(daves.id, favScoped)).status).toBe(200);
    expect((await post(t, `/api/v1/statuses/${daves.id}/favourite`)).status).toBe(401);
  });
});

describe("unfavourite", () => {
  test("answers at once with favourited false and the count lowered; the job completes the removal", async () => {
    const status = await postStatus(t, alice, "unlike me");
    await favourite(status.id, bob);
    t.deps.jobs.pause();
    const res = await unfavourite(status.id, bob);
    expect(res.status).toBe(200);
    expect([res.body.favourited, res.body.favourites_count]).toEqual([false, 0]);
    // Before the job: no longer favourited anywhere the viewer looks.
    expect((await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body.favourited).toBe(false);
    expect((await get(t, "/api/v1/favourites", bob.token)).body.map((s: any) => s.id)).not.toContain(status.id);
    expect((await get(t, `/api/v1/statuses/${status.id}/favourited_by`)).body).toEqual([]);
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body).toMatchObject({ favourited: false, favourites_count: 0 });
    expect(favNotes(status.id)).toEqual([]);
  });

  test("favouriting again before the job runs stays favourited, counted once", async () => {
    const status = await postStatus(t, alice, "fickle");
    await favourite(status.id, bob);
    t.deps.jobs.pause();
    await unfavourite(status.id, bob);
    const again = await favourite(status.id, bob);
    expect(again.body.favourited).toBe(true);
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    const after = (await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body;
    expect([after.favourited, after.favourites_count]).toEqual([true, 1]);
    expect((await get(t, "/api/v1/favourites", bob.token)).body.filter((s: any) => s.id === status.id).length).toBe(1);
    expect((await get(t, `/api/v1/statuses/${status.id}/favourited_by`)).body.map((a: any) => a.id)).toEqual([bob.id]);
    expect(favNotes(status.id).length).toBe(1);
  });

  test("unfavouriting what was never favourited is a no-op", async () => {
    const status = await postStatus(t, alice, "meh");
    const res = await unfavourite(status.id, bob);
    expect([res.status, res.body.favourited, res.body.favourites_count]).toEqual([200, false, 0]);
  });
});

describe("lists", () => {
  test("GET /api/v1/favourites pages by favourite id, newest favourite first, with Link headers", async () => {
    const fan = await newUser(t, "fan");
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await postStatus(t, alice, `s${i}`));
    // Favourited in a different order than posted: the list follows the favourites.
    for (const i of [2, 0, 4, 1, 3]) await favourite(statuses[i]!.id, fan);
    const all = await get(t, "/api/v1/favourites", fan.token);
    expect(all.body.map((s: any) => s.content)).toEqual(["<p>s3</p>", "<p>s1</p>", "<p>s4</p>", "<p>s0</p>", "<p>s2</p>"]);
    const first = await get(t, "/api/v1/favourites?limit=2", fan.token);
    expect(first.body.map((s: any) => s.content)).toEqual(["<p>s3</p>", "<p>s1</p>"]);
    const link = first.headers.get("link")!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!.replace(t.deps.config.url, "");
    expect(next).toContain("limit=2");
    const second = await get(t, next, fan.token);
    expect(second.body.map((s: any) => s.content)).toEqual(["<p>s4</p>", "<p>s0</p>"]);
    const prev = /<([^>]+)>; rel="prev"/.exec(second.headers.get("link")!)![1]!.replace(t.deps.config.url, "");
    expect(prev).toContain("min_id=");
    expect((await get(t, prev, fan.token)).body.map((s: any) => s.content)).toEqual(["<p>s3</p>", "<p>s1</p>"]);
    // Status lists offer `next` even when the page is not full (spec rule 3).
    expect((await get(t, "/api/v1/favourites?limit=40", fan.token)).headers.get("link")).toContain('rel="next"');
    expect((await get(t, "/api/v1/favourites", alice.token)).headers.get("link")).toBeNull();
  });

  test("GET /api/v1/favourites needs a user token with read:favourites", async () => {
    expect((await get(t, "/api/v1/favourites")).status).toBe(401);
    const writer = await newUser(t, "writer", "write");
    expect((await get(t, "/api/v1/favourites", writer.token)).status).toBe(403);
    const scoped = await newUser(t, "favreader", "read:favourites");
    expect((await get(t, "/api/v1/favourites", scoped.token)).status).toBe(200);
  });

  test("favourited_by pages accounts by favourite id", async () => {
    const status = await postStatus(t, alice, "crowd");
    const fans: User[] = [];
    for (let i = 0; i < 3; i++) {
      fans.push(await newUser(t, "crowd"));
      await favourite(status.id, fans[i]!);
    }
    const res = await get(t, `/api/v1/statuses/${status.id}/favourited_by?limit=2`);
    expect(res.body.map((a: any) => a.id)).toEqual([fans[2]!.id, fans[1]!.id]);
    expect(res.headers.get("link")).toContain('rel="next"');
    const full = await get(t, `/api/v1/statuses/${status.id}/favourited_by`);
    expect(full.body.length).toBe(3);
    expect(full.headers.get("link")).not.toContain('rel="next"');
    expect((await get(t, `/api/v1/statuses/${status.id}/favourited_by?limit=abc`)).body).toEqual([]);
  });
});
