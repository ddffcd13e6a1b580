// Blocks (spec rule 3 and the "not blocked → blocked" row): the block entry is created and follows and
// follow requests in both directions are removed in the request itself; the remaining clean-up is a job.
// From the moment the block is answered, the blocked account cannot follow or interact, even while the
// clean-up job is held back.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { account, get, newUser, post, relationship, updateProfile, type User, notificationsFrom as notificationsOf } from "./relationships-helpers.ts";

setDefaultTimeout(30_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const notificationsFrom = (to: User, from: User) => notificationsOf(t, to, from);
const jobsOf = (type: string) => t.deps.store.db.jobs.getRange({}).filter(({ value }: any) => value.type === type).asArray;

describe("POST /api/v1/accounts/:id/block", () => {
  test("removes follows in both directions at once and answers blocking: true", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    await post(t, `/api/v1/accounts/${a.id}/follow`, b.token);
    t.deps.jobs.pause();
    try {
      const res = await post(t, `/api/v1/accounts/${b.id}/block`, a.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: b.id, blocking: true, blocked_by: false, following: false, followed_by: false, requested: false, requested_by: false });
      expect(await relationship(t, b, a)).toMatchObject({ blocked_by: true, blocking: false, following: false, followed_by: false });
      for (const user of [a, b]) {
        const acct = await account(t, user);
        expect([acct.followers_count, acct.following_count]).toEqual([0, 0]);
      }
      expect((await get(t, `/api/v1/accounts/${a.id}/followers`, a.token)).body).toEqual([]);
      expect((await get(t, `/api/v1/accounts/${a.id}/following`, a.token)).body).toEqual([]);
      expect(jobsOf("relationships.block_cleanup")).toHaveLength(1);
    } finally {
      t.deps.jobs.resume();
    }
    await t.deps.jobs.drain();
    expect(jobsOf("relationships.block_cleanup")).toHaveLength(0);
  });

  test("removes pending follow requests in both directions", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await updateProfile(t, a, { locked: true });
    await updateProfile(t, b, { locked: true });
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    await post(t, `/api/v1/accounts/${a.id}/follow`, b.token);
    expect(await relationship(t, a, b)).toMatchObject({ requested: true, requested_by: true });
    const res = await post(t, `/api/v1/accounts/${b.id}/block`, a.token);
    expect(res.body).toMatchObject({ blocking: true, requested: false, requested_by: false });
    expect((await get(t, "/api/v1/follow_requests", a.token)).body).toEqual([]);
    expect((await get(t, "/api/v1/follow_requests", b.token)).body).toEqual([]);
  });

  test("while the clean-up job is held back, neither side can follow, and the blocked one cannot interact", async () => {
    const blocker = await newUser(t, "blocker");
    const blocked = await newUser(t, "blocked");
    const created = await post(t, "/api/v1/statuses", blocker.token, { status: "hello", visibility: "public" });
    expect(created.status).toBe(200);
    const statusId = created.body.id;
    await post(t, `/api/v1/accounts/${blocker.id}/follow`, blocked.token);
    await post(t, `/api/v1/statuses/${statusId}/favourite`, blocked.token);
    expect(notificationsFrom(blocker, blocked).map((n) => n.type).sort()).toEqual(["favourite", "follow"]);

    t.deps.jobs.pause();
    try {
      expect((await post(t, `/api/v1/accounts/${blocked.id}/block`, blocker.token)).status).toBe(200);
      expect(jobsOf("relationships.block_cleanup")).toHaveLength(1);
      for (const [who, target] of [[blocked, blocker], [blocker, blocked]] as const) {
        const res = await post(t, `/api/v1/accounts/${target.id}/follow`, who.token);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "This action is not allowed" });
      }
      // a locked blocker cannot be asked either
      await updateProfile(t, blocker, { locked: true });
      expect((await post(t, `/api/v1/accounts/${blocker.id}/follow`, blocked.token)).status).toBe(403);
      expect((await get(t, "/api/v1/follow_requests", blocker.token)).body).toEqual([]);
      for (const action of ["favourite", "reblog"]) {
        const res = await post(t, `/api/v1/statuses/${statusId}/${action}`, blocked.token);
        expect([403, 404]).toContain(res.status);
      }
      const reply = await post(t, "/api/v1/statuses", blocked.token, { status: `@${blocker.username} hi`, in_reply_to_id: statusId });
      expect([403, 404, 422]).toContain(reply.status);
      expect((await get(t, `/api/v1/statuses/${statusId}`, blocked.token)).status).toBe(404);
      // a mention of the blocker in a fresh status does not notify it
      expect((await post(t, "/api/v1/statuses", blocked.token, { status: `@${blocker.username} hello?` })).status).toBe(200);
      // the follow notification went with the follow; the clean-up of the rest has not run, and no new
      // notifications can arrive
      expect(notificationsFrom(blocker, blocked).map((n) => n.type)).toEqual(["favourite"]);
    } finally {
      t.deps.jobs.resume();
    }
    await t.deps.jobs.drain();
    expect(notificationsFrom(blocker, blocked)).toEqual([]);
    expect(notificationsFrom(blocked, blocker)).toEqual([]);
  });

  test("the clean-up removes favourites and reblogs across the block", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const mine = (await post(t, "/api/v1/statuses", a.token, { status: "from a", visibility: "public" })).body;
    const theirs = (await post(t, "/api/v1/statuses", b.token, { status: "from b", visibility: "public" })).body;
    expect((await post(t, `/api/v1/statuses/${mine.id}/favourite`, b.token)).status).toBe(200);
    expect((await post(t, `/api/v1/statuses/${mine.id}/reblog`, b.token)).status).toBe(200);
    expect((await post(t, `/api/v1/statuses/${theirs.id}/favourite`, a.token)).status).toBe(200);
    await post(t, `/api/v1/accounts/${b.id}/block`, a.token);
    await t.deps.jobs.drain();
    const after = (await get(t, `/api/v1/statuses/${mine.id}`, a.token)).body;
    expect([after.favourites_count, after.reblogs_count]).toEqual([0, 0]);
    expect((await get(t, `/api/v1/statuses/${theirs.id}`, b.token)).body.favourites_count).toBe(0);
    expect(notificationsFrom(a, b)).toEqual([]);
  });

  test("blocking again is idempotent; blocking yourself is 403; unknown accounts are 404", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    expect((await post(t, `/api/v1/accounts/${b.id}/block`, a.token)).body.blocking).toBe(true);
    const again = await post(t, `/api/v1/accounts/${b.id}/block`, a.token);
    expect(again.status).toBe(200);
    expect(again.body.blocking).toBe(true);
    expect((await get(t, "/api/v1/blocks", a.token)).body.map((x: any) => x.id)).toEqual([b.id]);
    const self = await post(t, `/api/v1/accounts/${a.id}/block`, a.token);
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ error: "This action is not allowed" });
    expect((await relationship(t, a, a)).blocking).toBe(false);
    for (const id of ["77777777777", "not-an-id"]) {
      expect((await post(t, `/api/v1/accounts/${id}/block`, a.token)).status).toBe(404);
      expect((await post(t, `/api/v1/accounts/${id}/unblock`, a.token)).status).toBe(404);
    }
  });

  test("scopes: write:blocks (or follow/write); write:follows is not enough", async () => {
    const target = await newUser(t);
    const follows = await newUser(t, "wf", "write:follows");
    const res = await post(t, `/api/v1/accounts/${target.id}/block`, follows.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "This action is outside the authorized scopes" });
    for (const scope of ["write:blocks", "follow", "write"]) {
      const user = await newUser(t, "bs", scope);
      expect((await post(t, `/api/v1/accounts/${target.id}/block`, user.token)).status).toBe(200);
      expect((await post(t, `/api/v1/accounts/${target.id}/unblock`, user.token)).status).toBe(200);
    }
    expect((await post(t, `/api/v1/accounts/${target.id}/block`, "bad-token")).status).toBe(401);
  });
});

describe("POST /api/v1/accounts/:id/unblock", () => {
  test("lifts the block (idempotently); following works again but nothing is restored", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    await post(t, `/api/v1/accounts/${a.id}/follow`, b.token);
    await post(t, `/api/v1/accounts/${b.id}/block`, a.token);
    for (let i = 0; i < 2; i++) {
      const res = await post(t, `/api/v1/accounts/${b.id}/unblock`, a.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ blocking: false, followed_by: false });
    }
    expect((await relationship(t, b, a)).blocked_by).toBe(false);
    expect((await get(t, "/api/v1/blocks", a.token)).body).toEqual([]);
    expect((await post(t, `/api/v1/accounts/${a.id}/follow`, b.token)).body.following).toBe(true);
  });
});

describe("GET /api/v1/blocks", () => {
  test("pages by block id, newest first, with Link headers; read:blocks needed", async () => {
    const a = await newUser(t);
    const targets: User[] = [];
    for (let i = 0; i < 3; i++) targets.push(await newUser(t, "tb"));
    for (const target of targets) await post(t, `/api/v1/accounts/${target.id}/block`, a.token);
    // re-blocking the oldest does not move it
    await post(t, `/api/v1/accounts/${targets[0]!.id}/block`, a.token);
    const page = await get(t, "/api/v1/blocks?limit=2", a.token);
    expect(page.status).toBe(200);
    expect(page.body.map((x: any) => x.id)).toEqual([targets[2]!.id, targets[1]!.id]);
    expect(page.body[0].username).toBe(targets[2]!.username);
    const link = page.headers.get("link")!;
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(link).toMatch(/since_id=\d+>; rel="prev"/);
    const rest = await get(t, next.replace("http://localhost:3000", ""), a.token);
    expect(rest.body.map((x: any) => x.id)).toEqual([targets[0]!.id]);
    const narrow = await newUser(t, "nb", "read:mutes");
    expect((await get(t, "/api/v1/blocks", narrow.token)).status).toBe(403);
    expect((await get(t, "/api/v1/blocks")).status).toBe(401);
  });
});
