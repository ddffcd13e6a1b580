// GET /api/v1/timelines/public and /api/v1/timelines/tag/:hashtag: public statuses only, no reblogs, no
// replies to others (public), local / remote / only_media, any[] / all[] / none[], anonymous and cacheable.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, get, idOf, mute, newUser, post, postStatus, remoteAccount, remoteStatus, timeline, type User } from "./timelines-helpers.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";

let t: TestApp;
let alice: User;
let bob: User;
let remote: AccountRecord;
type Named = "alicePublic" | "aliceUnlisted" | "alicePrivate" | "selfReply" | "bobReply" | "bobReblog" | "remotePublic" | "remoteMedia" | "remoteUnlisted" | "bobPublic";
const s = {} as Record<Named, string>;

beforeAll(async () => {
  t = await startTestApp();
  alice = await newUser(t, "pub");
  bob = await newUser(t, "pub");
  remote = await remoteAccount(t, "faraway");
  s.alicePublic = (await postStatus(t, alice, "hello #Cats and #dogs")).id;
  s.aliceUnlisted = (await postStatus(t, alice, { status: "quiet #cats", visibility: "unlisted" })).id;
  s.alicePrivate = (await postStatus(t, alice, { status: "secret #cats", visibility: "private" })).id;
  s.selfReply = (await postStatus(t, alice, { status: "and more #birds", in_reply_to_id: s.alicePublic })).id;
  s.bobReply = (await postStatus(t, bob, { status: `@${alice.username} nice #cats`, in_reply_to_id: s.alicePublic })).id;
  s.bobReblog = (await post(t, `/api/v1/statuses/${s.alicePublic}/reblog`, bob.token)).body.id;
  s.remotePublic = idOf(await remoteStatus(t, remote, { tags: ["cats"] }));
  s.remoteMedia = idOf(await remoteStatus(t, remote, { mediaIds: ["1"], tags: ["dogs"] }));
  s.remoteUnlisted = idOf(await remoteStatus(t, remote, { visibility: "unlisted" }));
  s.bobPublic = (await postStatus(t, bob, "bob speaks")).id;
});
afterAll(() => t.close());

describe("public timeline", () => {
  test("public statuses, self-replies included; no unlisted, private, replies to others or reblogs", async () => {
    expect(await timeline(t, "/api/v1/timelines/public")).toEqual([s.bobPublic, s.remoteMedia, s.remotePublic, s.selfReply, s.alicePublic]);
  });

  test("local=true leaves remote statuses out; remote=true keeps only them; both means all", async () => {
    expect(await timeline(t, "/api/v1/timelines/public?local=true")).toEqual([s.bobPublic, s.selfReply, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/public?remote=true")).toEqual([s.remoteMedia, s.remotePublic]);
    expect(await timeline(t, "/api/v1/timelines/public?local=1&remote=1")).toHaveLength(5);
    expect(await timeline(t, "/api/v1/timelines/public?only_media=true")).toEqual([s.remoteMedia]);
    expect(await timeline(t, "/api/v1/timelines/public?local=true&only_media=true")).toEqual([]);
  });

  test("anonymous answers may be cached by proxies; answers to a token may not", async () => {
    const anonymous = await get(t, "/api/v1/timelines/public");
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=15, stale-while-revalidate=30, stale-if-error=86400");
    expect(anonymous.headers.get("vary")).toContain("Authorization");
    expect(anonymous.body[0]).not.toHaveProperty("favourited");
    const signedIn = await get(t, "/api/v1/timelines/public", alice.token);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(signedIn.body[0]).toHaveProperty("favourited", false);
  });

  test("a bad token is refused rather than ignored", async () => {
    expect(await get(t, "/api/v1/timelines/public", "bogus")).toMatchObject({ status: 401, body: { error: "The access token is invalid" } });
  });

  test("the viewer's blocks and mutes, and blocks by authors, leave their statuses out", async () => {
    const [blocker, muter, blocked] = [await newUser(t, "pub"), await newUser(t, "pub"), await newUser(t, "pub")];
    await block(t, blocker, bob);
    await mute(t, muter, alice);
    await block(t, bob, blocked);
    expect(await timeline(t, "/api/v1/timelines/public?local=true", blocker.token)).toEqual([s.selfReply, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/public?local=true", muter.token)).toEqual([s.bobPublic]);
    expect(await timeline(t, "/api/v1/timelines/public?local=true", blocked.token)).toEqual([s.selfReply, s.alicePublic]);
  });

  test("Link on a non-empty page; paging with max_id", async () => {
    const res = await get(t, "/api/v1/timelines/public?limit=2&local=true");
    expect(res.body.map((x: any) => x.id)).toEqual([s.bobPublic, s.selfReply]);
    expect(res.headers.get("link")).toContain(`local=true&max_id=${s.selfReply}>; rel="next"`);
    expect(await timeline(t, `/api/v1/timelines/public?local=true&max_id=${s.selfReply}`)).toEqual([s.alicePublic]);
  });
});

describe("hashtag timeline", () => {
  test("public statuses with the tag, in any case; replies included, reblogs not", async () => {
    expect(await timeline(t, "/api/v1/timelines/tag/cats")).toEqual([s.remotePublic, s.bobReply, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/CATS")).toEqual([s.remotePublic, s.bobReply, s.alicePublic]);
  });

  test("an unknown tag gives an empty list", async () => {
    const res = await get(t, "/api/v1/timelines/tag/neverused");
    expect(res).toMatchObject({ status: 200, body: [] });
    expect(res.headers.get("link")).toBeNull();
  });

  test("local, remote and only_media", async () => {
    expect(await timeline(t, "/api/v1/timelines/tag/cats?local=true")).toEqual([s.bobReply, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?remote=true")).toEqual([s.remotePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/dogs?only_media=true")).toEqual([s.remoteMedia]);
  });

  test("any[], all[] and none[]", async () => {
    expect(await timeline(t, "/api/v1/timelines/tag/birds?any[]=dogs")).toEqual([s.remoteMedia, s.selfReply, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?all[]=dogs")).toEqual([s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?none[]=dogs")).toEqual([s.remotePublic, s.bobReply]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?any[]=birds&none[]=dogs&limit=1")).toEqual([s.remotePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?any=birds&min_id=" + s.alicePublic + "&limit=2")).toEqual([s.bobReply, s.selfReply]);
  });

  test("a signed-in viewer's blocks and mutes apply; any[] / all[] / none[] tags are case-insensitive, 4 each at most", async () => {
    const [blocker, muter] = [await newUser(t, "pub"), await newUser(t, "pub")];
    await block(t, blocker, bob);
    await mute(t, muter, alice);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?local=true", blocker.token)).toEqual([s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/cats?local=true", muter.token)).toEqual([s.bobReply]);
    expect(await timeline(t, "/api/v1/timelines/tag/Cats?all[]=DOGS")).toEqual([s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/%23cats?none[]=%23Dogs")).toEqual([s.remotePublic, s.bobReply]);
    // Only the first four any[] tags count: birds (the fifth) adds nothing.
    const many = "any[]=a&any[]=b&any[]=c&any[]=d&any[]=birds";
    expect(await timeline(t, `/api/v1/timelines/tag/dogs?${many}`)).toEqual([s.remoteMedia, s.alicePublic]);
    expect(await timeline(t, "/api/v1/timelines/tag/dogs?any[]=birds")).toEqual([s.remoteMedia, s.selfReply, s.alicePublic]);
    // An unknown main tag gives [] even when any[] names known ones.
    expect(await timeline(t, "/api/v1/timelines/tag/neverused?any[]=cats")).toEqual([]);
  });

  test("answers without a token, cacheable", async () => {
    const res = await get(t, "/api/v1/timelines/tag/cats");
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=15");
  });
});
