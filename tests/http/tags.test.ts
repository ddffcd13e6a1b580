// Hashtags: GET /api/v1/tags/:name, follow/unfollow and GET /api/v1/followed_tags; followed tags in the home
// timeline (blocks and mutes respected, gone on unfollow); featured tags (create, limits, counts kept by the
// subscribers, delete, feature/unfeature, suggestions, an account's list); other people's ids and scopes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, call, follow, get, home, mute, newUser, post, postStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const followTag = async (user: User, name: string) => {
  const res = await post(t, `/api/v1/tags/${encodeURIComponent(name)}/follow`, user.token);
  expect(res.status).toBe(200);
  return res.body;
};

describe("a tag", () => {
  test("anyone may read it; signed-in viewers also get following and featuring; a week of history", async () => {
    const user = await newUser(t, "tg");
    await postStatus(t, user, "about #Gardening today");
    await t.deps.jobs.drain();
    const anonymous = await get(t, "/api/v1/tags/gardening");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ id: "gardening", name: "gardening", url: "http://localhost:3000/tags/gardening" });
    expect(anonymous.body).not.toHaveProperty("following");
    expect(anonymous.body.history).toHaveLength(7);
    expect(anonymous.body.history[0]).toMatchObject({ uses: "1", accounts: "1" });
    const signedIn = await get(t, "/api/v1/tags/%23Gardening", user.token);
    expect(signedIn.body).toMatchObject({ name: "gardening", following: false, featuring: false });
    // Never used: still a tag, with an empty week.
    expect((await get(t, "/api/v1/tags/neverused")).body.history.every((d: any) => d.uses === "0")).toBe(true);
  });

  test("a name that is not a hashtag is 404 for every verb", async () => {
    const user = await newUser(t, "tg");
    for (const bad of ["123", "no%20space", "a-b", "x".repeat(201)]) {
      expect((await get(t, `/api/v1/tags/${bad}`)).status).toBe(404);
      for (const verb of ["follow", "unfollow", "feature", "unfeature"]) {
        expect((await post(t, `/api/v1/tags/${bad}/${verb}`, user.token)).status).toBe(404);
      }
    }
    expect((await get(t, `/api/v1/tags/${encodeURIComponent("café_1")}`)).body.name).toBe("café_1");
  });
});

describe("following tags", () => {
  test("follow and unfollow answer the Tag; following twice keeps one follow; followed_tags lists them", async () => {
    const user = await newUser(t, "tg");
    expect(await followTag(user, "Cats")).toMatchObject({ name: "cats", following: true, featuring: false });
    await followTag(user, "cats");
    await followTag(user, "dogs");
    const list = await get(t, "/api/v1/followed_tags", user.token);
    expect(list.body.map((tag: any) => tag.name)).toEqual(["dogs", "cats"]);
    expect(list.body.every((tag: any) => tag.following === true)).toBe(true);
    expect((await post(t, "/api/v1/tags/cats/unfollow", user.token)).body).toMatchObject({ name: "cats", following: false });
    expect((await post(t, "/api/v1/tags/cats/unfollow", user.token)).status).toBe(200);
    expect((await get(t, "/api/v1/followed_tags", user.token)).body.map((tag: any) => tag.name)).toEqual(["dogs"]);
    expect((await get(t, "/api/v1/tags/dogs", user.token)).body.following).toBe(true);
    // Someone else's follows are their own.
    const other = await newUser(t, "tg");
    expect((await get(t, "/api/v1/tags/dogs", other.token)).body.following).toBe(false);
    expect((await get(t, "/api/v1/followed_tags", other.token)).body).toEqual([]);
  });

  test("followed_tags pages by follow, next after a full page, prev with since_id", async () => {
    const user = await newUser(t, "tg");
    for (const name of ["one", "two", "three"]) await followTag(user, name);
    const first = await get(t, "/api/v1/followed_tags?limit=2", user.token);
    expect(first.body.map((tag: any) => tag.name)).toEqual(["three", "two"]);
    const link = first.headers.get("link")!;
    expect(link).toContain('rel="next"');
    expect(link).toMatch(/since_id=\d+>; rel="prev"/);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!.replace("http://localhost:3000", "");
    const second = await get(t, next, user.token);
    expect(second.body.map((tag: any) => tag.name)).toEqual(["one"]);
    expect(second.headers.get("link")).not.toContain('rel="next"');
  });

  test("scopes: reading needs read:follows, following write:follows", async () => {
    const reader = await newUser(t, "tg", "read:follows");
    expect((await get(t, "/api/v1/followed_tags", reader.token)).status).toBe(200);
    expect((await post(t, "/api/v1/tags/cats/follow", reader.token)).status).toBe(403);
    expect((await get(t, "/api/v1/followed_tags")).status).toBe(401);
    expect((await post(t, "/api/v1/tags/cats/follow")).status).toBe(401);
  });
});

describe("followed tags in the home timeline", () => {
  test("public statuses with the tag from accounts not followed arrive; other visibilities and reblogs do not", async () => {
    const [viewer, stranger, other] = [await newUser(t, "th"), await newUser(t, "th"), await newUser(t, "th")];
    await followTag(viewer, "birds");
    const tagged = await postStatus(t, stranger, "look #Birds");
    await postStatus(t, stranger, { status: "quiet #birds", visibility: "unlisted" });
    await postStatus(t, stranger, { status: "secret #birds", visibility: "private" });
    await postStatus(t, stranger, { status: `@${other.username} direct #birds`, visibility: "direct" });
    await postStatus(t, stranger, "no tag here");
    const reply = await postStatus(t, stranger, { status: "more #birds", in_reply_to_id: tagged.id });
    // A reblog of a tagged status by someone not followed does not come through the tag.
    expect((await post(t, `/api/v1/statuses/${tagged.id}/reblog`, other.token)).status).toBe(200);
    expect(await home(t, viewer)).toEqual([reply.id, tagged.id]);
    // Nobody else's home changes.
    expect(await home(t, other)).not.toContain(tagged.id);
  });

  test("a followed author's tagged status arrives once; the viewer's own once", async () => {
    const [viewer, friend] = [await newUser(t, "th"), await newUser(t, "th")];
    await follow(t, viewer, friend);
    await followTag(viewer, "fish");
    const theirs = await postStatus(t, friend, "#fish");
    const mine = await postStatus(t, viewer, "#fish too");
    expect(await home(t, viewer)).toEqual([mine.id, theirs.id]);
  });

  test("blocks and mutes hold: of the author, of mentioned accounts, and an author who blocks the viewer", async () => {
    const [viewer, blocked, muted, blocker, mentionedMuted] = [
      await newUser(t, "th"), await newUser(t, "th"), await newUser(t, "th"), await newUser(t, "th"), await newUser(t, "th"),
    ];
    await followTag(viewer, "frogs");
    await block(t, viewer, blocked);
    await mute(t, viewer, muted);
    await mute(t, viewer, mentionedMuted);
    await block(t, blocker, viewer);
    await postStatus(t, blocked, "#frogs from a blocked account");
    await postStatus(t, muted, "#frogs from a muted account");
    await postStatus(t, blocker, "#frogs from someone blocking you");
    const [stranger, another] = [await newUser(t, "th"), await newUser(t, "th")];
    await postStatus(t, stranger, `#frogs with @${mentionedMuted.username}`);
    const clean = await postStatus(t, another, "#frogs clean");
    expect(await home(t, viewer)).toEqual([clean.id]);
  });

  test("unfollowing the tag takes its statuses out of the home at once", async () => {
    const [viewer, stranger] = [await newUser(t, "th"), await newUser(t, "th")];
    await followTag(viewer, "toads");
    const tagged = await postStatus(t, stranger, "#toads");
    expect(await home(t, viewer)).toEqual([tagged.id]);
    await post(t, "/api/v1/tags/toads/unfollow", viewer.token);
    expect(await home(t, viewer)).toEqual([]);
  });
});

describe("featured tags", () => {
  const feature = (user: User, name: string) => post(t, "/api/v1/featured_tags", user.token, { name });

  test("counts the owner's public and unlisted statuses with the tag; a second feature answers the same", async () => {
    const user = await newUser(t, "tf");
    await postStatus(t, user, "#Rust one");
    await postStatus(t, user, { status: "#rust two", visibility: "unlisted" });
    await postStatus(t, user, { status: "#rust private", visibility: "private" });
    await postStatus(t, user, "#other");
    const res = await feature(user, "#Rust");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["id", "last_status_at", "name", "statuses_count", "url"]);
    expect(res.body).toMatchObject({
      name: "rust",
      statuses_count: "2",
      last_status_at: new Date().toISOString().slice(0, 10),
      url: `http://localhost:3000/@${user.username}/tagged/rust`,
    });
    expect((await feature(user, "rust")).body.id).toBe(res.body.id);
    expect((await get(t, "/api/v1/featured_tags", user.token)).body).toEqual([res.body]);
    expect((await get(t, `/api/v1/accounts/${user.id}/featured_tags`)).body).toEqual([res.body]);
  });

  test("new statuses count up, deleted ones count down, other accounts' statuses not at all", async () => {
    const [user, other] = [await newUser(t, "tf"), await newUser(t, "tf")];
    const ft = (await feature(user, "go")).body;
    expect(ft).toMatchObject({ statuses_count: "0", last_status_at: null });
    const a = await postStatus(t, user, "#go a");
    await postStatus(t, user, "#go b");
    await postStatus(t, other, "#go elsewhere");
    await t.deps.jobs.drain();
    expect((await get(t, "/api/v1/featured_tags", user.token)).body[0].statuses_count).toBe("2");
    expect((await call(t, "DELETE", `/api/v1/statuses/${a.id}`, user.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await get(t, "/api/v1/featured_tags", user.token)).body[0].statuses_count).toBe("1");
  });

  test("names are checked; at most 10", async () => {
    const user = await newUser(t, "tf");
    expect(await feature(user, "")).toMatchObject({ status: 422, body: { error: "Validation failed: Name can't be blank" } });
    expect(await feature(user, "not a tag")).toMatchObject({ status: 422, body: { error: "Validation failed: Name is invalid" } });
    for (let i = 0; i < 10; i++) expect((await feature(user, `t${i}x`)).status).toBe(200);
    expect(await feature(user, "eleventh")).toMatchObject({
      status: 422,
      body: { error: "Validation failed: You have already featured the maximum number of hashtags" },
    });
    expect((await post(t, "/api/v1/tags/eleventh/feature", user.token)).status).toBe(422);
  });

  test("DELETE removes your own; someone else's id is 404", async () => {
    const [user, mallory] = [await newUser(t, "tf"), await newUser(t, "tf")];
    const ft = (await feature(user, "mine")).body;
    expect((await call(t, "DELETE", `/api/v1/featured_tags/${ft.id}`, mallory.token)).status).toBe(404);
    expect((await get(t, "/api/v1/featured_tags", user.token)).body).toHaveLength(1);
    expect(await call(t, "DELETE", `/api/v1/featured_tags/${ft.id}`, user.token)).toMatchObject({ status: 200, body: {} });
    expect((await get(t, "/api/v1/featured_tags", user.token)).body).toEqual([]);
    expect((await call(t, "DELETE", `/api/v1/featured_tags/${ft.id}`, user.token)).status).toBe(404);
  });

  test("tags/:name/feature and unfeature answer the Tag with featuring", async () => {
    const user = await newUser(t, "tf");
    expect((await post(t, "/api/v1/tags/Plants/feature", user.token)).body).toMatchObject({ name: "plants", featuring: true });
    expect((await get(t, "/api/v1/featured_tags", user.token)).body.map((f: any) => f.name)).toEqual(["plants"]);
    expect((await post(t, "/api/v1/tags/plants/unfeature", user.token)).body).toMatchObject({ name: "plants", featuring: false });
    expect((await get(t, "/api/v1/featured_tags", user.token)).body).toEqual([]);
  });

  test("suggestions: tags of your newest statuses that you do not feature", async () => {
    const user = await newUser(t, "tf");
    await postStatus(t, user, "#alpha #beta");
    await postStatus(t, user, { status: "#gamma", visibility: "private" });
    await feature(user, "beta");
    const names = (await get(t, "/api/v1/featured_tags/suggestions", user.token)).body.map((tag: any) => tag.name);
    expect(names).toEqual(["gamma", "alpha"]);
  });

  test("an unknown account is 404; scopes are checked", async () => {
    expect((await get(t, "/api/v1/accounts/999999/featured_tags")).status).toBe(404);
    const reader = await newUser(t, "tf", "read:accounts");
    expect((await get(t, "/api/v1/featured_tags", reader.token)).status).toBe(200);
    expect((await post(t, "/api/v1/featured_tags", reader.token, { name: "x" })).status).toBe(403);
    expect((await get(t, "/api/v1/featured_tags")).status).toBe(401);
  });
});
