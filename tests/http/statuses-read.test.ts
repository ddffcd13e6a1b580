// GET /api/v1/statuses/:id and GET /api/v1/statuses?id[]=: who may see what.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { block, follow, get, newUser, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let author: User;
let follower: User;
let mentioned: User;
let stranger: User;
const posts: Record<string, any> = {};

beforeAll(async () => {
  t = await startTestApp();
  [author, follower, mentioned, stranger] = await Promise.all([newUser(t, "author"), newUser(t, "fan"), newUser(t, "named"), newUser(t, "other")]);
  await follow(t, follower, author);
  for (const visibility of ["public", "unlisted", "private", "direct"]) {
    posts[visibility] = await postStatus(t, author, { status: `${visibility} post for @${mentioned.username}`, visibility });
  }
  posts.privateNoMention = await postStatus(t, author, { status: "followers only", visibility: "private" });
}, 60_000);
afterAll(() => t.close());

const status = (id: string, user?: User) => get(t, `/api/v1/statuses/${id}`, user?.token);

describe("visibility", () => {
  test("public and unlisted: everyone, signed in or not", async () => {
    for (const v of ["public", "unlisted"]) {
      for (const viewer of [undefined, stranger, follower, author]) expect((await status(posts[v].id, viewer)).status).toBe(200);
    }
  });

  test("private: 404 to anonymous and non-followers; visible to the author, followers and mentioned accounts", async () => {
    const hidden = await status(posts.privateNoMention.id, stranger);
    expect(hidden).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await status(posts.privateNoMention.id)).status).toBe(404);
    expect((await status(posts.privateNoMention.id, mentioned)).status).toBe(404);
    expect((await status(posts.privateNoMention.id, follower)).status).toBe(200);
    expect((await status(posts.privateNoMention.id, author)).status).toBe(200);
    expect((await status(posts.private.id, mentioned)).status).toBe(200);
  });

  test("direct: only the author and mentioned accounts, not even followers", async () => {
    expect((await status(posts.direct.id, author)).status).toBe(200);
    expect((await status(posts.direct.id, mentioned)).status).toBe(200);
    expect((await status(posts.direct.id, follower)).status).toBe(404);
    expect((await status(posts.direct.id, stranger)).status).toBe(404);
    expect((await status(posts.direct.id)).status).toBe(404);
  });

  test("an app token sees what an anonymous reader sees", async () => {
    const app = await createClientApp(t);
    const { access_token } = await appToken(t, app, "read");
    expect((await get(t, `/api/v1/statuses/${posts.public.id}`, access_token)).status).toBe(200);
    expect((await get(t, `/api/v1/statuses/${posts.privateNoMention.id}`, access_token)).status).toBe(404);
  });

  test("an author who blocks the viewer hides everything from them at once", async () => {
    const blocker = await newUser(t, "blocker");
    const victim = await newUser(t, "victim");
    const post = await postStatus(t, blocker, "public words");
    expect((await status(post.id, victim)).status).toBe(200);
    await block(t, blocker, victim);
    expect((await status(post.id, victim)).status).toBe(404);
    expect((await status(post.id)).status).toBe(200);
  });

  test("a private status becomes visible once the follow exists", async () => {
    const locked = await newUser(t, "late");
    const post = await postStatus(t, locked, { status: "secret", visibility: "private" });
    const reader = await newUser(t, "reader");
    expect((await status(post.id, reader)).status).toBe(404);
    await follow(t, reader, locked);
    expect((await status(post.id, reader)).status).toBe(200);
  });
});

describe("GET /api/v1/statuses/:id", () => {
  test("unknown and malformed ids: 404", async () => {
    for (const id of ["1", "99999999999999999999999", "abc", "-5", "1.5"]) {
      expect(await status(id)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    }
  });

  test("anonymous answers may be cached by proxies; signed-in ones not", async () => {
    const anon = await t.request(`/api/v1/statuses/${posts.public.id}`);
    expect(anon.headers.get("cache-control")).toStartWith("public, max-age=15");
    expect(anon.headers.get("vary")).toBe("Authorization");
    const signedIn = await t.request(`/api/v1/statuses/${posts.public.id}`, { token: stranger.token });
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
  });

  test("bad token 401; a token without read scope 403", async () => {
    expect((await get(t, `/api/v1/statuses/${posts.public.id}`, "bogus")).status).toBe(401);
    const writer = await newUser(t, "writer", "write");
    expect(await get(t, `/api/v1/statuses/${posts.public.id}`, writer.token)).toMatchObject({
      status: 403,
      body: { error: "This action is outside the authorized scopes" },
    });
  });
});

describe("GET /api/v1/statuses?id[]=", () => {
  test("returns the visible ones in the order asked, dropping the rest", async () => {
    const ids = [posts.unlisted.id, posts.privateNoMention.id, "12345", "junk", posts.public.id];
    const res = await get(t, `/api/v1/statuses?${ids.map((id) => `id[]=${id}`).join("&")}`, stranger.token);
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => s.id)).toEqual([posts.unlisted.id, posts.public.id]);
    const asFollower = await get(t, `/api/v1/statuses?${ids.map((id) => `id[]=${id}`).join("&")}`, follower.token);
    expect(asFollower.body.map((s: any) => s.id)).toEqual([posts.unlisted.id, posts.privateNoMention.id, posts.public.id]);
  });

  test("a single id= works too", async () => {
    const res = await get(t, `/api/v1/statuses?id=${posts.public.id}`);
    expect(res.body.map((s: any) => s.id)).toEqual([posts.public.id]);
  });

  test("more than 20 ids: 422; no id: 400", async () => {
    const many = Array.from({ length: 21 }, (_, i) => `id[]=${i + 1}`).join("&");
    const res = await get(t, `/api/v1/statuses?${many}`);
    expect(res.status).toBe(422);
    expect(typeof res.body.error).toBe("string");
    expect((await get(t, `/api/v1/statuses?${many.split("&").slice(0, 20).join("&")}`)).status).toBe(200);
    expect(await get(t, "/api/v1/statuses")).toMatchObject({ status: 400, body: { error: "param is missing or the value is empty: id" } });
  });
});
