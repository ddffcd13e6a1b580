// The block holds on every path from the moment it is answered (spec rule 3, "not blocked → blocked"): with
// the clean-up job held back, the blocked account sees none of the blocker's statuses through any read
// endpoint (single, by ids, context, account statuses, home/public/tag/list timelines, favourites,
// bookmarks, favourited_by/reblogged_by, cards, streams) nor the blocker's collections, and cannot interact.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { get, newUser, post, relationship, type User, notificationsFrom as notificationsOf } from "./relationships-helpers.ts";

setDefaultTimeout(60_000); // each user costs an RSA key pair and a password hash

let t: TestApp;
let blocker: User;
let blocked: User;
let third: User;
type Key = "pub" | "unlisted" | "priv" | "byThird" | "blockerReply" | "thirdReblog" | "blockedReblog" | "blockedReply";
const s = {} as Record<Key, string>;
let listId: string;

async function status(user: User, json: Record<string, unknown>) {
  const res = await post(t, "/api/v1/statuses", user.token, json);
  if (res.status !== 200) throw new Error(`posting failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const ids = async (path: string, user: User = blocked) => {
  const res = await get(t, path, user.token);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((x) => x.id);
};
/** An SSE stream read in the background; text() is everything received so far. */
async function openStream(path: string, token: string) {
  const res = await t.request(path, { token });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let received = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      received += decoder.decode(value, { stream: true });
    }
  })();
  return { text: () => received, close: () => void reader.cancel().catch(() => {}) };
}

const notificationsFrom = (to: User, from: User) => notificationsOf(t, to, from);

beforeAll(async () => {
  t = await startTestApp();
  blocker = await newUser(t, "blocker");
  blocked = await newUser(t, "blocked");
  third = await newUser(t, "third");
  for (const [a, b] of [[blocked, blocker], [blocked, third], [blocker, third], [third, blocker]] as const) {
    expect((await post(t, `/api/v1/accounts/${b.id}/follow`, a.token)).body.following).toBe(true);
  }
  s.pub = await status(blocker, { status: "public words #reachtag", visibility: "public" });
  s.unlisted = await status(blocker, { status: "unlisted words #reachtag", visibility: "unlisted" });
  s.priv = await status(blocker, { status: "private words", visibility: "private" });
  s.byThird = await status(third, { status: "third speaks #reachtag", visibility: "public" });
  s.blockerReply = await status(blocker, { status: `@${third.username} a reply`, in_reply_to_id: s.byThird, visibility: "public" });
  s.thirdReblog = (await post(t, `/api/v1/statuses/${s.pub}/reblog`, third.token)).body.id;
  expect((await post(t, `/api/v1/statuses/${s.pub}/favourite`, blocked.token)).status).toBe(200);
  expect((await post(t, `/api/v1/statuses/${s.pub}/bookmark`, blocked.token)).status).toBe(200);
  expect((await post(t, `/api/v1/statuses/${s.byThird}/favourite`, blocker.token)).status).toBe(200);
  s.blockedReblog = (await post(t, `/api/v1/statuses/${s.unlisted}/reblog`, blocked.token)).body.id;
  s.blockedReply = await status(blocked, { status: `@${blocker.username} nice`, in_reply_to_id: s.pub });
  const list = await post(t, "/api/v1/lists", blocked.token, { title: "friends" });
  listId = list.body.id;
  expect((await post(t, `/api/v1/lists/${listId}/accounts`, blocked.token, { account_ids: [blocker.id, third.id] })).status).toBe(200);
  await t.deps.jobs.drain();
  // Before the block the blocked account sees it all.
  expect(await ids("/api/v1/timelines/home")).toContain(s.pub);
  expect(await ids(`/api/v1/timelines/list/${listId}`)).toContain(s.pub);
  t.deps.jobs.pause();
  expect((await post(t, `/api/v1/accounts/${blocked.id}/block`, blocker.token)).status).toBe(200);
});
afterAll(async () => {
  t.deps.jobs.resume();
  await t.close();
});

describe("with the block answered and its clean-up held back, the blocked account", () => {
  test("cannot open any of the blocker's statuses, nor reblogs of them", async () => {
    for (const key of ["pub", "unlisted", "priv", "blockerReply", "thirdReblog", "blockedReblog"] as const) {
      const res = await get(t, `/api/v1/statuses/${s[key]}`, blocked.token);
      expect([key, res.status, res.body]).toEqual([key, 404, { error: "Record not found" }]);
    }
    const all = Object.values(s).map((id) => `id[]=${id}`).join("&");
    expect(await ids(`/api/v1/statuses?${all}`)).toEqual([s.byThird, s.blockedReply]);
    for (const path of ["context", "card", "favourited_by", "reblogged_by"]) {
      expect((await get(t, `/api/v1/statuses/${s.pub}/${path}`, blocked.token)).status).toBe(404);
    }
    const context = (await get(t, `/api/v1/statuses/${s.byThird}/context`, blocked.token)).body;
    expect(context.descendants.map((x: any) => x.id)).not.toContain(s.blockerReply);
    // its own reply to the blocker stays its own, without the blocker's status above it
    const own = await get(t, `/api/v1/statuses/${s.blockedReply}/context`, blocked.token);
    expect([own.status, own.body.ancestors]).toEqual([200, []]);
  });

  test("finds none of them in account statuses, timelines, lists, favourites or bookmarks", async () => {
    const blockers = [s.pub, s.unlisted, s.priv, s.blockerReply, s.thirdReblog, s.blockedReblog];
    for (const path of [
      `/api/v1/accounts/${blocker.id}/statuses`,
      `/api/v1/accounts/${blocker.id}/statuses?pinned=true`,
      `/api/v1/accounts/${blocker.id}/statuses/media`,
    ]) {
      expect(await ids(path)).toEqual([]);
    }
    for (const path of [
      `/api/v1/accounts/${third.id}/statuses`,
      `/api/v1/accounts/${blocked.id}/statuses`,
      "/api/v1/timelines/home",
      "/api/v1/timelines/public",
      "/api/v1/timelines/public?local=true",
      "/api/v1/timelines/tag/reachtag",
      `/api/v1/timelines/list/${listId}`,
      "/api/v1/favourites",
      "/api/v1/bookmarks",
    ]) {
      const seen = await ids(path);
      expect([path, seen.filter((id) => blockers.includes(id))]).toEqual([path, []]);
    }
    expect(await ids("/api/v1/timelines/tag/reachtag")).toEqual([s.byThird]);
  });

  test("sees none of the blocker's followers or follows; the relationship says blocked_by", async () => {
    expect(await ids(`/api/v1/accounts/${blocker.id}/followers`)).toEqual([]);
    expect(await ids(`/api/v1/accounts/${blocker.id}/following`)).toEqual([]);
    expect(await ids(`/api/v1/accounts/${third.id}/followers`)).not.toContain(blocker.id);
    expect(await ids(`/api/v1/accounts/${third.id}/following`)).not.toContain(blocker.id);
    expect(await relationship(t, blocked, blocker)).toMatchObject({
      following: false, followed_by: false, blocked_by: true, blocking: false, requested: false, showing_reblogs: false,
    });
  });

  test("cannot follow, favourite, reblog, bookmark or reply; mentions and replies notify no one", async () => {
    expect((await post(t, `/api/v1/accounts/${blocker.id}/follow`, blocked.token)).status).toBe(403);
    for (const action of ["favourite", "reblog", "bookmark"]) {
      expect([action, (await post(t, `/api/v1/statuses/${s.pub}/${action}`, blocked.token)).status]).toEqual([action, 404]);
    }
    const reply = await post(t, "/api/v1/statuses", blocked.token, { status: "hey", in_reply_to_id: s.pub });
    expect(reply.status).toBe(404);
    await status(blocked, { status: `@${blocker.username} are you there?` });
    await status(blocked, { status: `@${blocker.username} @${third.username} thread`, in_reply_to_id: s.byThird });
    // only the mention from before the block (its clean-up is held back) is there
    expect(notificationsFrom(blocker, blocked).filter((n) => n.type === "mention").map((n) => n.statusId)).toEqual([normaliseId(s.blockedReply)]);
  });

  test("the blocker's new statuses (and reblogs of them) never reach it, in timelines or streams", async () => {
    const streams = await Promise.all(
      ["/api/v1/streaming/user", "/api/v1/streaming/public", "/api/v1/streaming/hashtag?tag=reachtag", `/api/v1/streaming/list?list=${listId}`].map(
        (path) => openStream(path, blocked.token),
      ),
    );
    const fresh = await status(blocker, { status: "after the block #reachtag", visibility: "public" });
    const reblog = (await post(t, `/api/v1/statuses/${fresh}/reblog`, third.token)).body.id;
    const control = await status(third, { status: "control #reachtag", visibility: "public" });
    // Streams are fed by jobs: let them (and so the block's clean-up) run for this last check.
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
    // The control status, posted last, reached the user, public and hashtag streams: what was sent before it has arrived.
    await eventually(() => streams.slice(0, 3).every((stream) => stream.text().includes(control)), { what: "the control status" });
    t.deps.jobs.pause();
    for (const stream of streams) {
      stream.close();
      expect(stream.text()).not.toContain(fresh);
      expect(stream.text()).not.toContain(reblog);
    }
    // the control status reached the user, public and hashtag streams: they were listening
    for (const stream of streams.slice(0, 3)) expect(stream.text()).toContain(control);
    for (const path of ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/timelines/tag/reachtag", `/api/v1/timelines/list/${listId}`]) {
      expect([path, (await ids(path)).includes(fresh)]).toEqual([path, false]);
    }
    expect((await get(t, `/api/v1/statuses/${fresh}`, blocked.token)).status).toBe(404);
  });
});
