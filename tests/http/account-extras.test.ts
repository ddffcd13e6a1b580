// Account extras: endorsements (endorse/pin, lists, only while followed, hidden collections and blocks),
// preferences, the profile directory, a user's domain blocks (what they hide, follows ended, notifications
// withheld, parameters) and thread mutes (muted flag, no notifications from the thread).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { referenceKeys } from "../helpers/reference-keys.ts";
import { notify } from "../../src/domain/notifications/notify.ts";
import { isFollowing } from "../../src/store/relationships.ts";
import {
  block, call, follow, followRemote, get, home, idOf, mute, newUser, post, postStatus, remoteAccount, remoteStatus, timeline, type User,
} from "./timelines-helpers.ts";
import { relationship, updateProfile } from "./relationships-helpers.ts";
import { api, staffUser } from "./admin-helpers.ts";
import { conversationOfThread } from "../../src/store/conversations.ts";
import { followsTag } from "../../src/store/tag-follows.ts";
import { featuredTagsOf } from "../../src/store/featured-tags.ts";
import { getEndorsement } from "../../src/store/endorsements.ts";
import { blocksDomain } from "../../src/store/user-domain-blocks.ts";
import { mutesAnyThread } from "../../src/store/thread-mutes.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ids = (body: { id: string }[]) => body.map((a) => a.id);

describe("endorsements", () => {
  test("only an account you follow; endorse and pin answer the Relationship; unendorse and unpin undo it", async () => {
    const [me, friend] = [await newUser(t, "e"), await newUser(t, "e")];
    expect(await post(t, `/api/v1/accounts/${friend.id}/endorse`, me.token)).toMatchObject({
      status: 422,
      body: { error: "Validation failed: You must be already following the person you want to endorse" },
    });
    expect((await post(t, `/api/v1/accounts/${me.id}/endorse`, me.token)).status).toBe(422);
    await follow(t, me, friend);
    expect((await post(t, `/api/v1/accounts/${friend.id}/endorse`, me.token)).body).toMatchObject({ id: friend.id, endorsed: true, following: true });
    expect((await post(t, `/api/v1/accounts/${friend.id}/unpin`, me.token)).body.endorsed).toBe(false);
    expect((await post(t, `/api/v1/accounts/${friend.id}/pin`, me.token)).body.endorsed).toBe(true);
    expect((await relationship(t, me, friend)).endorsed).toBe(true);
    expect((await post(t, `/api/v1/accounts/${friend.id}/unendorse`, me.token)).body.endorsed).toBe(false);
    expect((await post(t, `/api/v1/accounts/999999/endorse`, me.token)).status).toBe(404);
  });

  test("the lists: yours and anyone's, newest first, paged; an unfollow ends the endorsement", async () => {
    const [me, a, b, c, reader] = [await newUser(t, "e"), await newUser(t, "e"), await newUser(t, "e"), await newUser(t, "e"), await newUser(t, "e")];
    for (const other of [a, b, c]) {
      await follow(t, me, other);
      await post(t, `/api/v1/accounts/${other.id}/endorse`, me.token);
    }
    expect(ids((await get(t, "/api/v1/endorsements", me.token)).body)).toEqual([c.id, b.id, a.id]);
    const page = await get(t, `/api/v1/accounts/${me.id}/endorsements?limit=2`);
    expect(ids(page.body)).toEqual([c.id, b.id]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link")!)![1]!.replace("http://localhost:3000", "");
    expect(ids((await get(t, next)).body)).toEqual([a.id]);
    await post(t, `/api/v1/accounts/${b.id}/unfollow`, me.token);
    expect(ids((await get(t, `/api/v1/accounts/${me.id}/endorsements`, reader.token)).body)).toEqual([c.id, a.id]);
    expect((await relationship(t, me, b)).endorsed).toBe(false);
  });

  test("hidden: collections hidden (to others), an owner blocking the viewer, accounts the viewer blocks", async () => {
    const [owner, friend, other, viewer] = [await newUser(t, "e"), await newUser(t, "e"), await newUser(t, "e"), await newUser(t, "e")];
    await follow(t, owner, friend);
    await follow(t, owner, other);
    await post(t, `/api/v1/accounts/${friend.id}/endorse`, owner.token);
    await post(t, `/api/v1/accounts/${other.id}/endorse`, owner.token);
    await block(t, viewer, other);
    expect(ids((await get(t, `/api/v1/accounts/${owner.id}/endorsements`, viewer.token)).body)).toEqual([friend.id]);
    await updateProfile(t, owner, { hide_collections: true });
    expect((await get(t, `/api/v1/accounts/${owner.id}/endorsements`, viewer.token)).body).toEqual([]);
    expect(ids((await get(t, `/api/v1/accounts/${owner.id}/endorsements`, owner.token)).body)).toEqual([other.id, friend.id]);
    await updateProfile(t, owner, { hide_collections: false });
    await block(t, owner, viewer);
    expect((await get(t, `/api/v1/accounts/${owner.id}/endorsements`, viewer.token)).body).toEqual([]);
  });
});

describe("preferences", () => {
  test("the posting defaults of the account's source, and Mastodon's reading defaults, with exactly Mastodon's keys", async () => {
    const user = await newUser(t, "p");
    const res0 = await t.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: user.token,
      json: { source: { privacy: "unlisted", sensitive: true, language: "de" } },
    });
    expect(res0.status).toBe(200);
    const res = await get(t, "/api/v1/preferences", user.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(referenceKeys("GET /api/v1/preferences"));
    expect(res.body).toEqual({
      "posting:default:visibility": "unlisted",
      "posting:default:sensitive": true,
      "posting:default:language": "de",
      "posting:default:quote_policy": "public",
      "reading:expand:media": "default",
      "reading:expand:spoilers": false,
      "reading:autoplay:gifs": false,
    });
    expect((await get(t, "/api/v1/preferences")).status).toBe(401);
  });
});

describe("directory", () => {
  test("discoverable accounts only; order, local, offset; the viewer's blocks and mutes", async () => {
    const [quiet, early, late, hidden, muted] = [await newUser(t, "d"), await newUser(t, "d"), await newUser(t, "d"), await newUser(t, "d"), await newUser(t, "d")];
    for (const user of [quiet, early, late, muted]) await updateProfile(t, user, { discoverable: true });
    await updateProfile(t, hidden, { discoverable: false });
    const remote = await remoteAccount(t, `dirremote${Date.now()}`);
    await postStatus(t, early, "first");
    await postStatus(t, late, "later");
    const listed = (res: { body: { id: string }[] }) => ids(res.body).filter((id) => [quiet, early, late, hidden, muted].some((u) => u.id === id) || id === idOf(remote));
    expect(listed(await get(t, "/api/v1/directory?order=new&limit=80"))).toEqual([idOf(remote), muted.id, late.id, early.id, quiet.id]);
    expect(listed(await get(t, "/api/v1/directory?order=new&local=true&limit=80"))).toEqual([muted.id, late.id, early.id, quiet.id]);
    const active = listed(await get(t, "/api/v1/directory?limit=80"));
    expect(active.slice(0, 2)).toEqual([late.id, early.id]);
    const viewer = await newUser(t, "d");
    await mute(t, viewer, muted);
    expect(listed(await get(t, "/api/v1/directory?order=new&local=true&limit=80", viewer.token))).toEqual([late.id, early.id, quiet.id]);
    const all = ids((await get(t, "/api/v1/directory?order=new&limit=80")).body);
    expect(ids((await get(t, "/api/v1/directory?order=new&offset=1&limit=2")).body)).toEqual(all.slice(1, 3));
  });
});

describe("domain blocks", () => {
  test("the list, parameters, and Relationship.domain_blocking", async () => {
    const user = await newUser(t, "db");
    expect((await post(t, "/api/v1/domain_blocks", user.token, {})).status).toBe(400);
    expect((await post(t, "/api/v1/domain_blocks", user.token, { domain: "not a domain" })).status).toBe(422);
    expect((await post(t, "/api/v1/domain_blocks", user.token, { domain: "Spam.Example" })).body).toEqual({});
    await post(t, "/api/v1/domain_blocks", user.token, { domain: "spam.example" });
    await post(t, "/api/v1/domain_blocks", user.token, { domain: "https://other.example/path" });
    expect((await get(t, "/api/v1/domain_blocks", user.token)).body).toEqual(["other.example", "spam.example"]);
    const page = await get(t, "/api/v1/domain_blocks?limit=1", user.token);
    expect(page.body).toEqual(["other.example"]);
    expect(page.headers.get("link")).toMatch(/rel="next".*since_id=\d+>; rel="prev"/);
    const spammer = await remoteAccount(t, "spammer", "spam.example");
    const rel = await get(t, `/api/v1/accounts/relationships?id[]=${idOf(spammer)}`, user.token);
    expect(rel.body[0]).toMatchObject({ domain_blocking: true, blocking: false });
    expect((await call(t, "DELETE", "/api/v1/domain_blocks?domain=spam.example", user.token)).status).toBe(200);
    expect((await get(t, "/api/v1/domain_blocks", user.token)).body).toEqual(["other.example"]);
    expect((await get(t, `/api/v1/accounts/relationships?id[]=${idOf(spammer)}`, user.token)).body[0].domain_blocking).toBe(false);
    // Another user's list is their own.
    expect((await get(t, "/api/v1/domain_blocks", (await newUser(t, "db")).token)).body).toEqual([]);
    const reader = await newUser(t, "db", "read");
    expect((await post(t, "/api/v1/domain_blocks", reader.token, { domain: "x.example" })).status).toBe(403);
  });

  test("hides the domain's statuses from home and public timelines, ends follows both ways, refuses new ones", async () => {
    const [user, other] = [await newUser(t, "db"), await newUser(t, "db")];
    const author = await remoteAccount(t, "poster", "blocked.example");
    const fan = await remoteAccount(t, "fan", "blocked.example");
    await followRemote(t, user, author);
    const { putFollow } = await import("../../src/store/relationships.ts");
    const { newId } = await import("../../src/lib/ids.ts");
    await t.deps.store.write(() =>
      putFollow(t.deps.store, { v: 1, id: newId(), accountId: fan.id, targetId: user.id.padStart(18, "0"), reblogs: true, notify: false, languages: null, createdAt: Date.now(), uri: null }),
    );
    const status = await remoteStatus(t, author, { content: "<p>from a blocked domain</p>" });
    expect(await home(t, user)).toEqual([idOf(status)]);
    await post(t, "/api/v1/domain_blocks", user.token, { domain: "blocked.example" });
    expect(await home(t, user)).toEqual([]);
    expect(await timeline(t, "/api/v1/timelines/public", user.token)).not.toContain(idOf(status));
    expect(await timeline(t, "/api/v1/timelines/public", other.token)).toContain(idOf(status));
    await t.deps.jobs.drain();
    expect(isFollowing(t.deps.store, user.id.padStart(18, "0"), author.id)).toBe(false);
    expect(isFollowing(t.deps.store, fan.id, user.id.padStart(18, "0"))).toBe(false);
    expect(await post(t, `/api/v1/accounts/${idOf(author)}/follow`, user.token)).toMatchObject({ status: 403 });
  });

  test("no notification from an account of the domain", async () => {
    const user = await newUser(t, "db");
    const sender = await remoteAccount(t, "pinger", "noisy.example");
    await post(t, "/api/v1/domain_blocks", user.token, { domain: "noisy.example" });
    const made = await t.deps.store.write(() => notify(t.deps, { type: "follow", recipientId: user.id.padStart(18, "0"), fromAccountId: sender.id }));
    expect(made).toBeNull();
    const quiet = await remoteAccount(t, "pinger", "quiet.example");
    expect(await t.deps.store.write(() => notify(t.deps, { type: "follow", recipientId: user.id.padStart(18, "0"), fromAccountId: quiet.id }))).not.toBeNull();
  });
});

describe("thread mutes", () => {
  async function notificationTypes(user: User) {
    await t.deps.jobs.drain();
    return (await get(t, "/api/v1/notifications", user.token)).body.map((n: any) => `${n.type}:${n.status?.id}`);
  }

  test("muted: true on the thread's statuses; no notifications from it; unmute brings them back", async () => {
    const [me, alice, bob] = [await newUser(t, "m"), await newUser(t, "m"), await newUser(t, "m")];
    const root = await postStatus(t, me, "a thread");
    const reply = await postStatus(t, alice, { status: `@${me.username} a reply`, in_reply_to_id: root.id });
    expect(await notificationTypes(me)).toEqual([`mention:${reply.id}`]);
    // Muting any status of the thread mutes the thread.
    const muted = await post(t, `/api/v1/statuses/${reply.id}/mute`, me.token);
    expect(muted).toMatchObject({ status: 200, body: { id: reply.id, muted: true } });
    expect((await get(t, `/api/v1/statuses/${root.id}`, me.token)).body.muted).toBe(true);
    expect((await get(t, `/api/v1/statuses/${root.id}`, alice.token)).body.muted).toBe(false);
    const deeper = await postStatus(t, bob, { status: `@${me.username} deeper`, in_reply_to_id: reply.id });
    await post(t, `/api/v1/statuses/${root.id}/favourite`, bob.token);
    expect(await notificationTypes(me)).toEqual([`mention:${reply.id}`]);
    // Other threads still notify.
    const elsewhere = await postStatus(t, bob, `@${me.username} elsewhere`);
    expect((await notificationTypes(me))[0]).toBe(`mention:${elsewhere.id}`);
    expect((await post(t, `/api/v1/statuses/${deeper.id}/unmute`, me.token)).body.muted).toBe(false);
    const afterUnmute = await postStatus(t, bob, { status: `@${me.username} again`, in_reply_to_id: root.id });
    expect((await notificationTypes(me))[0]).toBe(`mention:${afterUnmute.id}`);
  });

  test("a status the viewer may not see is 404; scopes are checked", async () => {
    const [me, stranger] = [await newUser(t, "m"), await newUser(t, "m")];
    const secret = await postStatus(t, stranger, { status: "followers only", visibility: "private" });
    expect((await post(t, `/api/v1/statuses/${secret.id}/mute`, me.token)).status).toBe(404);
    expect((await post(t, `/api/v1/statuses/nonsense/mute`, me.token)).status).toBe(404);
    const reader = await newUser(t, "m", "read");
    const open = await postStatus(t, stranger, "public");
    expect((await post(t, `/api/v1/statuses/${open.id}/mute`, reader.token)).status).toBe(403);
  });
});

describe("a suspended account's data removal", () => {
  test("takes its conversations, followed and featured hashtags, endorsements, domain blocks and thread mutes", async () => {
    const admin = await staffUser(t, "extrasboss", "Admin");
    const [victim, friend] = [await newUser(t, "x"), await newUser(t, "x")];
    const id = victim.id.padStart(18, "0");
    await follow(t, victim, friend);
    await post(t, `/api/v1/accounts/${friend.id}/endorse`, victim.token);
    await post(t, "/api/v1/tags/removal/follow", victim.token);
    await post(t, "/api/v1/tags/removal/feature", victim.token);
    await post(t, "/api/v1/domain_blocks", victim.token, { domain: "gone.example" });
    const dm = await postStatus(t, friend, { status: `@${victim.username} hi`, visibility: "direct" });
    await t.deps.jobs.drain();
    await post(t, `/api/v1/statuses/${dm.id}/mute`, victim.token);
    await t.deps.jobs.drain();
    const store = t.deps.store;
    const before = () => [
      conversationOfThread(store, id, dm.id.padStart(18, "0")) !== undefined,
      followsTag(store, id, "removal"),
      featuredTagsOf(store, id).length > 0,
      getEndorsement(store, id, friend.id.padStart(18, "0")) !== undefined,
      blocksDomain(store, id, "gone.example"),
      mutesAnyThread(store, id),
    ];
    expect(before()).toEqual([true, true, true, true, true, true]);
    expect((await api(t, "POST", `/api/v1/admin/accounts/${victim.id}/action`, admin.token, { type: "suspend", send_email_notification: false })).status).toBe(200);
    expect((await api(t, "DELETE", `/api/v1/admin/accounts/${victim.id}`, admin.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect(before()).toEqual([false, false, false, false, false, false]);
  });
});
