// Streaming through real sockets: a listening server (Bun's WebSocket upgrade needs one), jobs on worker
// threads (so stream signals cross from workers to the main thread), SSE and WebSocket clients.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { openSse, openWebSocket, settle, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";
import { streamHub } from "../../src/http/streaming/hub.ts";
import { block, call, follow, mute, newUser, post, postStatus, remoteAccount, remoteStatus } from "../http/timelines-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let base: string;

beforeAll(async () => ({ t, base } = await startListeningApp()));
afterAll(() => stopListeningApp(t));

const sse = (path: string, token?: string) => openSse(base, path, token);
const ws = (query = "", protocols?: string[], headers?: Record<string, string>) => openWebSocket(base, query, protocols, headers);

describe("endpoints and authentication", () => {
  test("GET /api/v1/streaming/health answers OK", async () => {
    const res = await fetch(`${base}/api/v1/streaming/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("OK");
  });

  test("SSE: a user token with a reading scope is required for every stream", async () => {
    const user = await newUser(t, "auth");
    for (const path of ["/api/v1/streaming/public", "/api/v1/streaming/user", "/api/v1/streaming/hashtag?tag=x"]) {
      const res = await fetch(base + path);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "Missing access token" });
    }
    const bad = await fetch(`${base}/api/v1/streaming/user?access_token=nope`);
    expect([bad.status, await bad.json()]).toEqual([401, { error: "Invalid access token" }]);
    const writer = await newUser(t, "auth", "write");
    const scoped = await fetch(`${base}/api/v1/streaming/public`, { headers: { authorization: `Bearer ${writer.token}` } });
    expect([scoped.status, await scoped.json()]).toEqual([401, { error: "Access token does not have the required scopes" }]);
    const notifier = await newUser(t, "auth", "read:notifications");
    const notifications = await sse("/api/v1/streaming/user/notification", notifier.token);
    notifications.close();
    expect((await fetch(`${base}/api/v1/streaming/user`, { headers: { authorization: `Bearer ${notifier.token}` } })).status).toBe(401);
    const noTag = await fetch(`${base}/api/v1/streaming/hashtag?access_token=${user.token}`);
    expect([noTag.status, await noTag.json()]).toEqual([400, { error: "No tag for stream provided" }]);
    const notMine = await fetch(`${base}/api/v1/streaming/list?list=12345&access_token=${user.token}`);
    expect([notMine.status, await notMine.json()]).toEqual([401, { error: "Not authorized to stream this list" }]);
  });

  test("WebSocket: the token may come as Sec-WebSocket-Protocol (echoed), access_token or Authorization; none is 401", async () => {
    const user = await newUser(t, "auth");
    const byProtocol = await ws("", [user.token]);
    expect(byProtocol.socket.protocol).toBe(user.token);
    const byQuery = await ws(`?access_token=${user.token}`);
    const byHeader = await ws("", undefined, { authorization: `Bearer ${user.token}` });
    for (const client of [byProtocol, byQuery, byHeader]) client.close();
    const upgrade = { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" };
    const refused = await fetch(`${base}/api/v1/streaming`, { headers: upgrade });
    expect([refused.status, await refused.json()]).toEqual([401, { error: "Missing access token" }]);
    const invalid = await fetch(`${base}/api/v1/streaming?access_token=nope`, { headers: upgrade });
    expect(invalid.status).toBe(401);
  });
});

describe("user stream", () => {
  test("a followed account's new status reaches the follower's home timeline and user stream (SSE and WebSocket)", async () => {
    const [follower, author] = [await newUser(t, "u"), await newUser(t, "u")];
    await follow(t, follower, author);
    const events = await sse("/api/v1/streaming/user", follower.token);
    const socket = await ws(`?stream=user&access_token=${follower.token}`);
    await socket.synced();
    const status = await postStatus(t, author, "fresh news");
    await eventually(() => (events.updates().includes(status.id) ? true : undefined), { what: "the SSE update" });
    await eventually(() => (socket.updateIds("user").includes(status.id) ? true : undefined), { what: "the WebSocket update" });
    const message = socket.events("update", "user")[0]!;
    expect(message.stream).toEqual(["user"]);
    expect(typeof message.payload).toBe("string");
    expect(JSON.parse(message.payload!)).toMatchObject({ id: status.id, content: "<p>fresh news</p>", account: { id: author.id } });
    // Rendered for the recipient, as Mastodon renders home pushes: the viewer's flags are there.
    expect(JSON.parse(message.payload!)).toMatchObject({ favourited: false, reblogged: false, bookmarked: false, muted: false });
    const home = await call(t, "GET", "/api/v1/timelines/home", follower.token);
    expect(home.body.map((s: any) => s.id)).toContain(status.id);
    events.close();
    socket.close();
  });

  test("a private status reaches followers' streams only", async () => {
    const [author, follower, outsider] = [await newUser(t, "u"), await newUser(t, "u"), await newUser(t, "u")];
    await follow(t, follower, author);
    const followerStream = await sse("/api/v1/streaming/user", follower.token);
    const outsiderSocket = await ws(`?access_token=${outsider.token}`);
    await outsiderSocket.subscribe({ stream: "user" });
    await outsiderSocket.subscribe({ stream: "public" });
    const secret = await postStatus(t, author, { status: "for followers", visibility: "private" });
    await eventually(() => (followerStream.updates().includes(secret.id) ? true : undefined), { what: "the follower's update" });
    await settle(t);
    expect(outsiderSocket.events("update")).toEqual([]);
    followerStream.close();
    outsiderSocket.close();
  });

  test("delete is streamed as the bare id", async () => {
    const [author, follower] = [await newUser(t, "u"), await newUser(t, "u")];
    await follow(t, follower, author);
    const socket = await ws(`?access_token=${follower.token}`);
    await socket.subscribe({ stream: "user" });
    await socket.subscribe({ stream: "public:local" });
    const events = await sse("/api/v1/streaming/user", follower.token);
    const status = await postStatus(t, author, "soon gone");
    await eventually(() => (socket.updateIds("user").includes(status.id) ? true : undefined), { what: "the update" });
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}`, author.token)).status).toBe(200);
    await eventually(() => (socket.events("delete").length === 2 ? true : undefined), { what: "delete on both streams" });
    expect(socket.events("delete").map((m) => [m.stream, m.payload]).sort()).toEqual([[["public:local"], status.id], [["user"], status.id]]);
    await eventually(() => events.events.find((e) => e.event === "delete"), { what: "the SSE delete" });
    expect(events.events.find((e) => e.event === "delete")!.data).toBe(status.id);
    events.close();
    socket.close();
  });

  test("a block or a mute keeps the other account's statuses out of the streams", async () => {
    const [reader, blocked, muted, booster] = [await newUser(t, "u"), await newUser(t, "u"), await newUser(t, "u"), await newUser(t, "u")];
    for (const other of [blocked, muted, booster]) await follow(t, reader, other);
    await mute(t, reader, muted);
    await block(t, reader, blocked);
    const socket = await ws(`?access_token=${reader.token}`);
    await socket.subscribe({ stream: "user" });
    await socket.subscribe({ stream: "public" });
    await socket.subscribe({ stream: "hashtag", tag: "Quiet" });
    const fromBlocked = await postStatus(t, blocked, "blocked #quiet");
    const fromMuted = await postStatus(t, muted, "muted #quiet");
    await post(t, `/api/v1/statuses/${fromMuted.id}/reblog`, booster.token);
    const fine = await postStatus(t, booster, "fine #quiet");
    await eventually(() => (socket.updateIds("hashtag").includes(fine.id) ? true : undefined), { what: "the visible status" });
    await settle(t);
    const seen = socket.events("update").map((m) => JSON.parse(m.payload!));
    expect(seen.map((s) => s.id).sort()).toEqual([fine.id, fine.id, fine.id]);
    expect(socket.events("update", "hashtag")[0]!.stream).toEqual(["hashtag", "Quiet"]);
    expect(seen.some((s) => s.id === fromBlocked.id || s.reblog)).toBe(false);
    socket.close();
  });

  test("notifications reach the user stream and user:notification", async () => {
    const [me, fan] = [await newUser(t, "u"), await newUser(t, "u")];
    const events = await sse("/api/v1/streaming/user/notification", me.token);
    const socket = await ws(`?access_token=${me.token}`);
    await socket.subscribe({ stream: "user" });
    await follow(t, fan, me);
    const mention = await postStatus(t, fan, `hello @${me.username}`);
    await eventually(() => (events.events.filter((e) => e.event === "notification").length >= 2 ? true : undefined), { what: "two notifications" });
    const payloads = events.events.filter((e) => e.event === "notification").map((e) => JSON.parse(e.data));
    expect(payloads.map((n) => n.type).sort()).toEqual(["follow", "mention"]);
    expect(payloads.find((n) => n.type === "mention")).toMatchObject({ account: { id: fan.id }, status: { id: mention.id } });
    await eventually(() => (socket.events("notification", "user").length >= 2 ? true : undefined), { what: "notifications on the user stream" });
    events.close();
    socket.close();
  });
});

describe("scopes per stream", () => {
  test("read:statuses opens every stream but user:notification, and its user stream carries no notifications", async () => {
    const [reader, fan, author] = [await newUser(t, "sc", "read:statuses follow"), await newUser(t, "sc"), await newUser(t, "sc")];
    const refused = await fetch(`${base}/api/v1/streaming/user/notification`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect([refused.status, await refused.json()]).toEqual([401, { error: "Access token does not have the required scopes" }]);
    const socket = await ws(`?access_token=${reader.token}`);
    socket.send({ type: "subscribe", stream: "user:notification" });
    await eventually(() => socket.messages.find((m) => m.error), { what: "the refusal" });
    expect(socket.messages).toEqual([{ error: "Access token does not have the required scopes", status: 401 }]);
    await socket.subscribe({ stream: "user" });
    await follow(t, fan, reader);
    await follow(t, reader, author);
    const status = await postStatus(t, author, "statuses only");
    await eventually(() => (socket.updateIds("user").includes(status.id) ? true : undefined), { what: "the update" });
    await settle(t);
    expect(socket.events("notification")).toEqual([]);
    socket.close();
  });

  test("read opens every stream, user:notification included", async () => {
    const user = await newUser(t, "sc", "read");
    const hub = streamHub(t.deps);
    const before = hub.connections;
    for (const path of ["user", "user/notification", "public", "public/local", "public/remote", "hashtag?tag=x", "hashtag/local?tag=x", "direct"]) {
      const events = await sse(`/api/v1/streaming/${path}`, user.token);
      events.close();
    }
    await eventually(() => (hub.connections === before ? true : undefined), { what: "the streams to close" });
  });
});

describe("WebSocket subscriptions", () => {
  test("several streams on one socket, each message naming its stream; unsubscribe stops one", async () => {
    const [reader, author] = [await newUser(t, "w"), await newUser(t, "w")];
    await follow(t, reader, author);
    const socket = await ws(`?access_token=${reader.token}`);
    await socket.subscribe({ stream: "user" });
    await socket.subscribe({ stream: "public" });
    await socket.subscribe({ stream: "public" });
    await socket.subscribe({ stream: "hashtag:local", tag: "multi" });
    const first = await postStatus(t, author, "one #multi");
    await eventually(() => (socket.events("update").length === 3 ? true : undefined), { what: "three updates" });
    expect(socket.events("update").map((m) => m.stream!.join(":")).sort()).toEqual(["hashtag:local:multi", "public", "user"]);
    // Public and hashtag payloads are one anonymous rendering shared by every subscriber; user ones are personal.
    expect(JSON.parse(socket.events("update", "public")[0]!.payload!)).not.toHaveProperty("favourited");
    expect(JSON.parse(socket.events("update", "user")[0]!.payload!)).toHaveProperty("favourited", false);
    await socket.unsubscribe({ stream: "public" });
    const second = await postStatus(t, author, "two #multi");
    await eventually(() => (socket.updateIds("hashtag:local").includes(second.id) ? true : undefined), { what: "the second update" });
    await settle(t);
    expect(socket.updateIds("public")).toEqual([first.id]);
    expect(socket.updateIds("user")).toEqual([first.id, second.id]);
    socket.close();
  });

  test("public:local leaves remote statuses out; public:remote keeps only them", async () => {
    const user = await newUser(t, "w");
    const remote = await remoteAccount(t, "streamer");
    const socket = await ws(`?access_token=${user.token}`);
    await socket.subscribe({ stream: "public:local" });
    await socket.subscribe({ stream: "public:remote" });
    const remoteOne = await remoteStatus(t, remote, { content: "<p>from afar</p>" });
    const localOne = await postStatus(t, user, "from here");
    await eventually(() => (socket.updateIds("public:local").includes(localOne.id) ? true : undefined), { what: "the local update" });
    await eventually(() => (socket.updateIds("public:remote").length ? true : undefined), { what: "the remote update" });
    await settle(t);
    expect(socket.updateIds("public:local")).toEqual([localOne.id]);
    expect(socket.updateIds("public:remote")).toEqual([remoteOne.id.replace(/^0+/, "")]);
    socket.close();
  });

  test("list and direct streams", async () => {
    const [owner, member, friend] = [await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w")];
    await follow(t, owner, member);
    await follow(t, owner, friend);
    const list = (await post(t, "/api/v1/lists", owner.token, { title: "Streamed" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, owner.token, { account_ids: [member.id] });
    const socket = await ws(`?access_token=${owner.token}`);
    await socket.subscribe({ stream: "list", list: list.id });
    await socket.subscribe({ stream: "direct" });
    const onList = await postStatus(t, member, "on the list");
    const direct = await postStatus(t, friend, { status: `@${owner.username} between us`, visibility: "direct" });
    await eventually(() => (socket.updateIds("list").length && socket.events("conversation", "direct").length ? true : undefined), { what: "list update and conversation" });
    await settle(t);
    expect(socket.updateIds("list")).toEqual([onList.id]);
    expect(socket.events("update", "list")[0]!.stream).toEqual(["list", list.id]);
    // The direct stream sends the Conversation (as on Mastodon), not the status.
    expect(socket.updateIds("direct")).toEqual([]);
    expect(socket.events("conversation", "direct").map((m) => JSON.parse(m.payload!).last_status.id)).toEqual([direct.id]);
    socket.close();
  });

  test("bad subscriptions are answered with an error message; a binary frame closes the socket with 1003", async () => {
    const [user, other] = [await newUser(t, "w"), await newUser(t, "w")];
    const otherList = (await post(t, "/api/v1/lists", other.token, { title: "Private" })).body;
    const socket = await ws(`?access_token=${user.token}`);
    socket.send({ type: "subscribe", stream: "nonsense" });
    socket.send({ type: "subscribe", stream: "hashtag" });
    socket.send({ type: "subscribe", stream: "list", list: otherList.id });
    socket.socket.send("not json");
    await eventually(() => (socket.messages.length === 3 ? true : undefined), { what: "three errors" });
    expect(socket.messages).toEqual([
      { error: "Unknown stream type", status: 400 },
      { error: "No tag for stream provided", status: 400 },
      { error: "Not authorized to stream this list", status: 401 },
    ]);
    socket.socket.send(new Uint8Array([1, 2, 3]));
    await eventually(() => socket.closed ?? undefined, { what: "the close" });
    expect(socket.closed!.code).toBe(1003);
  });

  test("heartbeats; a revoked token closes its streams", async () => {
    const user = await newUser(t, "w");
    const events = await sse("/api/v1/streaming/public", user.token);
    const socket = await ws(`?access_token=${user.token}`);
    await socket.subscribe({ stream: "public" });
    const hub = streamHub(t.deps);
    hub.tick();
    await eventually(() => (events.comments.includes("thump") ? true : undefined), { what: "a heartbeat" });
    const revoke = await t.request("/oauth/revoke", {
      method: "POST",
      form: { client_id: user.app.client_id, client_secret: user.app.client_secret, token: user.token },
    });
    expect(revoke.status).toBe(200);
    hub.tick();
    await eventually(() => socket.closed ?? undefined, { what: "the socket to close" });
    await eventually(() => (events.ended ? true : undefined), { what: "the event stream to end" });
    expect(hub.connections).toBe(0);
  });
});
