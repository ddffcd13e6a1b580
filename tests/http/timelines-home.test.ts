// GET /api/v1/timelines/home: fan-out on write, the home rules (follows, reblogs, replies, visibility, blocks,
// mutes, exclusive lists), back-fill on follow, removal on unfollow / delete, auth errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { fanOutStatuses } from "../../src/domain/timelines/fan-out.ts";
import { homeHas } from "../../src/store/timelines.ts";
import {
  block, call, follow, followRemote, get, home, idOf, mute, newUser, post, postStatus, remoteAccount, remoteStatus, remoteStatuses,
} from "./timelines-helpers.ts";
import { updateProfile } from "./relationships-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe("who may read it", () => {
  test("no token, an app token or a token without read:statuses is refused", async () => {
    expect(await get(t, "/api/v1/timelines/home")).toMatchObject({ status: 401, body: { error: "The access token is invalid" } });
    expect(await get(t, "/api/v1/timelines/home", "not-a-token")).toMatchObject({ status: 401 });
    const app = await createClientApp(t);
    const { access_token } = await appToken(t, app, "read");
    expect(await get(t, "/api/v1/timelines/home", access_token)).toMatchObject({
      status: 422,
      body: { error: "This method requires an authenticated user" },
    });
    const writer = await newUser(t, "h", "write");
    expect(await get(t, "/api/v1/timelines/home", writer.token)).toMatchObject({
      status: 403,
      body: { error: "This action is outside the authorized scopes" },
    });
    const reader = await newUser(t, "h", "read:statuses");
    expect((await get(t, "/api/v1/timelines/home", reader.token)).status).toBe(200);
  });
});

describe("what it shows", () => {
  test("own statuses and those of followed accounts, newest first; not others'", async () => {
    const [me, friend, stranger] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, me, friend);
    const mine = await postStatus(t, me, "mine");
    const theirs = await postStatus(t, friend, "from a friend");
    await postStatus(t, stranger, "from a stranger");
    expect(await home(t, me)).toEqual([theirs.id, mine.id]);
    const res = await get(t, "/api/v1/timelines/home", me.token);
    expect(res.body[0]).toMatchObject({ id: theirs.id, content: "<p>from a friend</p>", favourited: false, account: { id: friend.id } });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  test("a private status reaches followers only; a direct one only mentioned followers", async () => {
    const [author, follower, mentionedFollower, outsider] = [await newUser(t), await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, follower, author);
    await follow(t, mentionedFollower, author);
    const secret = await postStatus(t, author, { status: "followers only", visibility: "private" });
    const direct = await postStatus(t, author, { status: `psst @${mentionedFollower.username}`, visibility: "direct" });
    expect(await home(t, follower)).toEqual([secret.id]);
    expect(await home(t, mentionedFollower)).toEqual([direct.id, secret.id]);
    expect(await home(t, outsider)).toEqual([]);
    expect(await home(t, author)).toEqual([direct.id, secret.id]);
  });

  test("reblogs of followed accounts appear unless the follow hides them", async () => {
    const [reader, booster, author] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, booster);
    const original = await postStatus(t, author, "worth sharing");
    const boost = (await post(t, `/api/v1/statuses/${original.id}/reblog`, booster.token)).body;
    expect(await home(t, reader)).toEqual([boost.id]);
    const res = await get(t, "/api/v1/timelines/home", reader.token);
    expect(res.body[0].reblog).toMatchObject({ id: original.id });

    // Hidden at once when the follow stops showing reblogs, and not fanned out any more.
    expect((await post(t, `/api/v1/accounts/${booster.id}/follow`, reader.token, { reblogs: false })).body.showing_reblogs).toBe(false);
    expect(await home(t, reader)).toEqual([]);
    const later = await postStatus(t, author, "also good");
    await post(t, `/api/v1/statuses/${later.id}/reblog`, booster.token);
    const own = await postStatus(t, booster, "an ordinary status");
    expect(await home(t, reader)).toEqual([own.id]);
  });

  test("a reblog of a status already near the top is not shown twice", async () => {
    const [reader, author, booster] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, author);
    await follow(t, reader, booster);
    const original = await postStatus(t, author, "seen already");
    await post(t, `/api/v1/statuses/${original.id}/reblog`, booster.token);
    expect(await home(t, reader)).toEqual([original.id]);
  });

  test("replies to accounts the reader does not follow stay out; replies to followed ones and self-replies come in", async () => {
    const [reader, friend, other] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, friend);
    const otherPost = await postStatus(t, other, "hello");
    const toOther = await postStatus(t, friend, { status: `@${other.username} hi`, in_reply_to_id: otherPost.id });
    const thread = await postStatus(t, friend, "a thread");
    const selfReply = await postStatus(t, friend, { status: "continued", in_reply_to_id: thread.id });
    const mine = await postStatus(t, reader, "my post");
    const toMe = await postStatus(t, friend, { status: `@${reader.username} yes`, in_reply_to_id: mine.id });
    const ids = await home(t, reader);
    expect(ids).toEqual([toMe.id, mine.id, selfReply.id, thread.id]);
    expect(ids).not.toContain(toOther.id);
  });

  test("statuses fanned out in one batch reach each home once and in order, with a signal per status naming its homes", async () => {
    const [reader, other] = [await newUser(t), await newUser(t)];
    const author = await remoteAccount(t, "batcher");
    await followRemote(t, reader, author);
    await followRemote(t, other, author);
    const signals = new Map<string, string[]>();
    const off = t.deps.jobs.onEvent((event) => {
      if (event.kind === "update" && !event.broadcast) signals.set(event.statusId as string, [...(event.homes as string[])].sort());
    });
    t.deps.jobs.pause();
    const statuses = await remoteStatuses(t, author, 4);
    const deleted = await remoteStatus(t, author, { deletedAt: Date.now() });
    t.deps.jobs.resume();
    const expected = statuses.map(idOf).reverse();
    expect(await home(t, reader)).toEqual(expected);
    expect(await home(t, other)).toEqual(expected);
    off();
    const homes = [reader.id, other.id].map((id) => id.padStart(18, "0")).sort();
    expect(Object.fromEntries(signals)).toEqual(Object.fromEntries(statuses.map((status) => [status.id, homes])));
    // Idempotent: run again (as after a crash), nothing is added; the deleted status went nowhere.
    await fanOutStatuses(t.deps.store, () => {}, [...statuses, deleted].map((status) => status.id));
    expect(await home(t, reader)).toEqual(expected);
  });

  test("the follow's languages narrow what comes in", async () => {
    const [reader, polyglot] = [await newUser(t), await newUser(t)];
    expect((await post(t, `/api/v1/accounts/${polyglot.id}/follow`, reader.token, { languages: ["de"] })).status).toBe(200);
    const german = await postStatus(t, polyglot, { status: "Guten Tag", language: "de" });
    await postStatus(t, polyglot, { status: "Good day", language: "en" });
    expect(await home(t, reader)).toEqual([german.id]);
  });
});

describe("follow, unfollow, block, mute", () => {
  test("following back-fills recent statuses; unfollowing removes them", async () => {
    const [reader, author] = [await newUser(t), await newUser(t)];
    const older = await postStatus(t, author, "before the follow");
    await postStatus(t, author, { status: "private before", visibility: "private" });
    await follow(t, reader, author);
    const ids = await home(t, reader);
    expect(ids).toContain(older.id);
    expect(ids).toHaveLength(2);
    await post(t, `/api/v1/accounts/${author.id}/unfollow`, reader.token);
    expect(await home(t, reader)).toEqual([]);
  });

  test("fan-out reaches who follows the author now: a new follower, not a former one", async () => {
    const [reader, newcomer, author] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, author);
    const first = await postStatus(t, author, "to the first follower");
    expect(await home(t, reader)).toEqual([first.id]);
    await post(t, `/api/v1/accounts/${author.id}/unfollow`, reader.token);
    await follow(t, newcomer, author);
    await t.deps.jobs.drain(); // clean-up and back-fill done: from here on, rows come from fan-out only
    const second = await postStatus(t, author, "to the newcomer");
    await t.deps.jobs.drain();
    const rowOf = (user: { id: string }) => homeHas(t.deps.store, user.id.padStart(18, "0"), second.id.padStart(18, "0"));
    expect([rowOf(reader), rowOf(newcomer)]).toEqual([false, true]);
    expect(await home(t, newcomer)).toEqual([second.id, first.id]);
  });

  test("an authorised follow request back-fills too, private statuses included", async () => {
    const [reader, locked] = [await newUser(t), await newUser(t)];
    await updateProfile(t, locked, { locked: true });
    const secret = await postStatus(t, locked, { status: "followers only", visibility: "private" });
    expect((await post(t, `/api/v1/accounts/${locked.id}/follow`, reader.token)).body.requested).toBe(true);
    expect(await home(t, reader)).toEqual([]);
    expect((await post(t, `/api/v1/follow_requests/${reader.id}/authorize`, locked.token)).status).toBe(200);
    expect(await home(t, reader)).toEqual([secret.id]);
  });

  test("a block removes each account's statuses from the other's home, at once and for good", async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    await follow(t, a, b);
    await follow(t, b, a);
    const fromA = await postStatus(t, a, "from a");
    const fromB = await postStatus(t, b, "from b");
    expect(await home(t, a)).toEqual([fromB.id, fromA.id]);
    t.deps.jobs.pause();
    await block(t, a, b);
    // Before the clean-up job: the read-time rules already hide them.
    expect((await get(t, "/api/v1/timelines/home", a.token)).body.map((s: any) => s.id)).toEqual([fromA.id]);
    expect((await get(t, "/api/v1/timelines/home", b.token)).body.map((s: any) => s.id)).toEqual([fromB.id]);
    t.deps.jobs.resume();
    await post(t, `/api/v1/accounts/${b.id}/unblock`, a.token);
    expect(await home(t, a)).toEqual([fromA.id]);
  });

  test("a mute hides the account's statuses and reblogs of them; unmuting shows them again", async () => {
    const [reader, loud, booster] = [await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, loud);
    await follow(t, reader, booster);
    const noise = await postStatus(t, loud, "noise");
    const more = await postStatus(t, loud, "more noise");
    const quiet = await postStatus(t, booster, "quiet");
    await mute(t, reader, loud);
    expect((await post(t, `/api/v1/statuses/${noise.id}/reblog`, booster.token)).status).toBe(200);
    expect(await home(t, reader)).toEqual([quiet.id]);
    await post(t, `/api/v1/accounts/${loud.id}/unmute`, reader.token);
    // The reblog of `noise` was not added: the status itself is still near the top of the feed.
    expect(await home(t, reader)).toEqual([quiet.id, more.id, noise.id]);
  });

  test("statuses mentioning an account the reader blocks or mutes stay out, and reblogs of them; own statuses stay", async () => {
    const [reader, friend, booster, blocked, muted, author] = [await newUser(t), await newUser(t), await newUser(t), await newUser(t), await newUser(t), await newUser(t)];
    await follow(t, reader, friend);
    await follow(t, reader, booster);
    await block(t, reader, blocked);
    await mute(t, reader, muted);
    const toBlocked = await postStatus(t, friend, `hi @${blocked.username}`);
    const toMuted = await postStatus(t, friend, `hi @${muted.username}`);
    const aboutMuted = await postStatus(t, author, `look @${muted.username}`);
    await post(t, `/api/v1/statuses/${aboutMuted.id}/reblog`, booster.token);
    const fine = await postStatus(t, friend, "hi everyone");
    const mine = await postStatus(t, reader, `note to self about @${muted.username}`);
    expect(await home(t, reader)).toEqual([mine.id, fine.id]);
    expect(await home(t, reader)).not.toContain(toBlocked.id);
    expect(await home(t, reader)).not.toContain(toMuted.id);
    await post(t, `/api/v1/accounts/${muted.id}/unmute`, reader.token);
    expect(await home(t, reader)).toContain(toMuted.id);
  });

  test("members of an exclusive list are left out of home", async () => {
    const [reader, member] = [await newUser(t), await newUser(t)];
    await follow(t, reader, member);
    const status = await postStatus(t, member, "on a list");
    const list = (await post(t, "/api/v1/lists", reader.token, { title: "Exclusive", exclusive: true })).body;
    expect((await post(t, `/api/v1/lists/${list.id}/accounts`, reader.token, { account_ids: [member.id] })).status).toBe(200);
    expect(await home(t, reader)).toEqual([]);
    await call(t, "PUT", `/api/v1/lists/${list.id}`, reader.token, { exclusive: false });
    expect(await home(t, reader)).toEqual([status.id]);
  });

  test("a deleted status vanishes at once, before its removal job runs", async () => {
    const [reader, author] = [await newUser(t), await newUser(t)];
    await follow(t, reader, author);
    const status = await postStatus(t, author, "regret");
    expect(await home(t, reader)).toEqual([status.id]);
    t.deps.jobs.pause();
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}`, author.token)).status).toBe(200);
    expect((await get(t, "/api/v1/timelines/home", reader.token)).body).toEqual([]);
    t.deps.jobs.resume();
    expect(await home(t, reader)).toEqual([]);
    expect(await home(t, author)).toEqual([]);
  });
});

describe("kept pages", () => {
  test("a repeated read gives the same answer until something is written; a revoked token is refused at once", async () => {
    const [reader, author] = [await newUser(t), await newUser(t)];
    await follow(t, reader, author);
    const status = await postStatus(t, author, "cache me");
    await t.deps.jobs.drain();
    const first = await get(t, "/api/v1/timelines/home", reader.token);
    const again = await get(t, "/api/v1/timelines/home", reader.token);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("link")).toBe(first.headers.get("link"));
    expect(again.headers.get("cache-control")).toBe("private, no-store");
    expect(first.body[0]).toMatchObject({ id: status.id, favourited: false });
    await post(t, `/api/v1/statuses/${status.id}/favourite`, reader.token);
    expect((await get(t, "/api/v1/timelines/home", reader.token)).body[0]).toMatchObject({ id: status.id, favourited: true, favourites_count: 1 });
    const revoke = await t.request("/oauth/revoke", {
      method: "POST",
      form: { client_id: reader.app.client_id, client_secret: reader.app.client_secret, token: reader.token },
    });
    expect(revoke.status).toBe(200);
    expect((await get(t, "/api/v1/timelines/home", reader.token)).status).toBe(401);
  });
});
