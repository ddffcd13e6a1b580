// Edits: PUT /api/v1/statuses/:id (text, content warning, sensitivity, language, attachments and their
// descriptions, poll), GET /api/v1/statuses/:id/history and /source, and what an edit sets off: the
// status.update stream signal, `update` notifications to those who reblogged, fresh timeline pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { jpeg, uploadImage } from "../helpers/media.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;
let pages: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  // Link cards come from a local page server, reachable because private addresses are allowed here.
  pages = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => new Response(`<html><head><title>Page ${new URL(request.url).pathname}</title></head></html>`, { headers: { "content-type": "text/html" } }),
  });
  t = await startTestApp({ WARREN_CACHE_STATUS_HEADER: "on", WARREN_JOB_WORKERS: "2", WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  [alice, bob, carol] = await Promise.all([newUser(t, "alice"), newUser(t, "bob"), newUser(t, "carol")]);
  await follow(t, bob, alice);
}, 60_000);
afterAll(async () => {
  await t.close();
  pages.stop(true);
});

const put = (user: User | null, id: string, json: unknown) => call(t, "PUT", `/api/v1/statuses/${id}`, user?.token, json);
const EDIT_KEYS = ["content", "spoiler_text", "sensitive", "created_at", "account", "media_attachments", "emojis"];

describe("editing", () => {
  test("the author edits: edited_at, history with the original first, source", async () => {
    const status = await postStatus(t, alice, { status: "first draft", language: "en" });
    expect(status.edited_at).toBeNull();
    const unedited = await get(t, `/api/v1/statuses/${status.id}/history`);
    expect(unedited.body.length).toBe(1);
    expect(Object.keys(unedited.body[0])).toEqual(EDIT_KEYS);
    expect(unedited.body[0]).toMatchObject({ content: "<p>first draft</p>", created_at: status.created_at });

    const res = await put(alice, status.id, { status: "second draft", spoiler_text: "cw", language: "de" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: status.id, content: "<p>second draft</p>", spoiler_text: "cw", sensitive: true, language: "de" });
    expect(Date.parse(res.body.edited_at)).toBeGreaterThanOrEqual(Date.parse(status.created_at));
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.content).toBe("<p>second draft</p>");

    await put(alice, status.id, { status: "third draft", spoiler_text: "" });
    const history = await get(t, `/api/v1/statuses/${status.id}/history`, bob.token);
    expect(history.body.map((v: any) => [v.content, v.spoiler_text, v.sensitive])).toEqual([
      ["<p>first draft</p>", "", false],
      ["<p>second draft</p>", "cw", true],
      ["<p>third draft</p>", "", false],
    ]);
    expect(history.body[0].created_at).toBe(status.created_at);
    expect(history.body.every((v: any) => v.account.id === alice.id)).toBe(true);
    expect((await get(t, `/api/v1/statuses/${status.id}/source`, bob.token)).body).toEqual({ id: status.id, text: "third draft", spoiler_text: "" });
    expect((await get(t, `/api/v1/statuses/${status.id}/source`)).status).toBe(401);
  });

  test("sending it back unchanged is not an edit", async () => {
    const status = await postStatus(t, alice, "as it is");
    const res = await put(alice, status.id, { status: "as it is", spoiler_text: "" });
    expect(res.status).toBe(200);
    expect(res.body.edited_at).toBeNull();
    expect((await get(t, `/api/v1/statuses/${status.id}/history`)).body.length).toBe(1);
  });

  test("only the author, only what they may see, never a reblog; bad text is 422", async () => {
    const status = await postStatus(t, alice, "mine");
    expect((await put(bob, status.id, { status: "yours" })).status).toBe(403);
    expect((await put(null, status.id, { status: "nobody's" })).status).toBe(401);
    const reblog = await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token);
    expect((await put(bob, reblog.body.id, { status: "boost" })).status).toBe(403);
    const secret = await postStatus(t, carol, { status: "secret", visibility: "private" });
    expect((await put(alice, secret.id, { status: "x" })).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${secret.id}/history`, alice.token)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${secret.id}/source`, alice.token)).status).toBe(404);
    for (const id of ["nope", "999999999999999999"]) expect((await put(alice, id, { status: "x" })).status).toBe(404);
    for (const json of [{ status: "" }, { status: "   " }, { status: "x".repeat(501) }, { status: "x".repeat(100_000) }, { media_ids: ["1"] }]) {
      const res = await put(alice, status.id, json);
      expect({ status: res.status, error: typeof res.body.error }).toEqual({ status: 422, error: "string" });
    }
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body).toMatchObject({ content: "<p>mine</p>", edited_at: null });
  });

  test("the link card follows the first link: fetched again when it changed, gone with it", async () => {
    const base = `http://127.0.0.1:${pages.port}`;
    const status = await postStatus(t, alice, `see ${base}/one`);
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.card.title).toBe("Page /one");
    await put(alice, status.id, { status: `see ${base}/one again` });
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.card.title).toBe("Page /one");
    await put(alice, status.id, { status: `see ${base}/two instead` });
    await t.deps.jobs.drain();
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.card.title).toBe("Page /two");
    await put(alice, status.id, { status: "no link now" });
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.card).toBeNull();
  });

  test("a new mention is notified; mentions already there are not notified again", async () => {
    const status = await postStatus(t, alice, `hi @${carol.username}`);
    await put(alice, status.id, { status: `hi @${carol.username} and @${bob.username}` });
    await t.deps.jobs.drain();
    const mentionsOf = async (user: User) =>
      (await get(t, "/api/v1/notifications?types[]=mention", user.token)).body.filter((n: any) => n.status?.id === status.id).length;
    expect(await mentionsOf(bob)).toBe(1);
    expect(await mentionsOf(carol)).toBe(1);
  });
});

describe("polls and attachments", () => {
  const poll = (options: string[], extra: Record<string, unknown> = {}) => ({ options, expires_in: 3600, ...extra });

  test("a changed poll starts afresh; the same options keep their votes; an edit without a poll removes it", async () => {
    const status = await postStatus(t, alice, { status: "vote", poll: poll(["a", "b"]) });
    expect((await post(t, `/api/v1/polls/${status.id}/votes`, bob.token, { choices: ["1"] })).status).toBe(200);
    const same = await put(alice, status.id, { status: "vote!", poll: poll(["a", "b"]) });
    expect(same.body.poll).toMatchObject({ votes_count: 1, voters_count: 1 });
    const changed = await put(alice, status.id, { status: "vote!", poll: poll(["a", "b", "c"]) });
    expect(changed.body.poll).toMatchObject({ votes_count: 0, voters_count: 0 });
    expect(changed.body.poll.options.map((o: any) => o.title)).toEqual(["a", "b", "c"]);
    expect((await get(t, `/api/v1/polls/${status.id}`, bob.token)).body).toMatchObject({ voted: false, own_votes: [] });
    const history = await get(t, `/api/v1/statuses/${status.id}/history`);
    expect(history.body.map((v: any) => v.poll?.options.map((o: any) => o.title))).toEqual([["a", "b"], ["a", "b"], ["a", "b", "c"]]);
    const removed = await put(alice, status.id, { status: "no more vote" });
    expect(removed.body.poll).toBeNull();
    expect((await get(t, `/api/v1/polls/${status.id}`)).status).toBe(404);
    expect((await put(alice, status.id, { status: "x", poll: poll(["only"]) })).status).toBe(422);
  });

  test("attachments: added, described, taken off; history keeps each version's descriptions", async () => {
    const first = await uploadImage(t, alice.token, "old words");
    const second = await uploadImage(t, alice.token);
    const status = await postStatus(t, alice, { status: "pictures", media_ids: [first.id] });
    const res = await put(alice, status.id, {
      status: "pictures",
      media_ids: [first.id, second.id],
      media_attributes: [{ id: first.id, description: "new words", focus: "0.5,-0.5" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.media_attachments.map((m: any) => [m.id, m.description])).toEqual([[first.id, "new words"], [second.id, null]]);
    expect(res.body.media_attachments[0].meta.focus).toEqual({ x: 0.5, y: -0.5 });
    expect((await put(alice, status.id, { status: "pictures", poll: poll(["a", "b"]) })).status).toBe(422);
    const fewer = await put(alice, status.id, { status: "one picture", media_ids: [second.id] });
    expect(fewer.body.media_attachments.map((m: any) => m.id)).toEqual([second.id]);
    // What was taken off may be posted again.
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "reused", media_ids: [first.id] })).status).toBe(200);
    const history = await get(t, `/api/v1/statuses/${status.id}/history`);
    expect(history.body.map((v: any) => v.media_attachments.map((m: any) => m.description))).toEqual([["old words"], ["new words", null], [null]]);
    // Someone else's upload cannot be attached by an edit.
    const bobs = await uploadImage(t, bob.token);
    expect((await put(alice, status.id, { status: "theft", media_ids: [bobs.id] })).status).toBe(422);
    const tooLong = [{ id: second.id, description: "x".repeat(20_000) }];
    expect((await put(alice, status.id, { status: "long", media_attributes: tooLong })).status).toBe(422);
  });

  test("a thumbnail in media_attributes (Mastodon.py's data: URI) gives a new preview_url; a bad one changes nothing", async () => {
    const media = await uploadImage(t, alice.token, "before");
    const status = await postStatus(t, alice, { status: "thumbnailed", media_ids: [media.id] });
    const before = status.media_attachments[0].preview_url as string;
    const thumbnail = `data:image/jpeg;base64,${Buffer.from(await jpeg(40, 30)).toString("base64")}`;
    const attributes = [{ id: media.id, description: "after", focus: "0.2,-0.1", thumbnail }];
    const res = await put(alice, status.id, { status: "thumbnailed anew", media_ids: [media.id], media_attributes: attributes });
    expect(res.status).toBe(200);
    const [edited] = res.body.media_attachments;
    expect(edited).toMatchObject({ id: media.id, description: "after", meta: { focus: { x: 0.2, y: -0.1 } } });
    expect(edited.preview_url).not.toBe(before);
    expect((await t.request(new URL(edited.preview_url).pathname)).status).toBe(200);
    for (const bad of ["data:image/jpeg;base64,", "not a data uri", `data:image/jpeg;base64,${btoa("no picture")}`]) {
      const refused = await put(alice, status.id, { status: "bad", media_attributes: [{ id: media.id, thumbnail: bad }] });
      expect(refused.status).toBe(422);
    }
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body.media_attachments[0].preview_url).toBe(edited.preview_url);
  });
});

describe("form-encoded edits", () => {
  test("media_ids[], media_attributes[][…] and poll[…] as Rails-style form fields", async () => {
    const media = await uploadImage(t, alice.token);
    const status = await postStatus(t, alice, { status: "form", media_ids: [media.id] });
    const body = new URLSearchParams([
      ["status", "form edited"],
      ["media_ids[]", media.id],
      ["media_attributes[][id]", media.id],
      ["media_attributes[][description]", "described by form"],
    ]).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await t.request(`/api/v1/statuses/${status.id}`, { method: "PUT", token: alice.token, body, headers });
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    expect(json.media_attachments[0].description).toBe("described by form");
    const pollBody = "status=now+a+poll&poll[options][]=x&poll[options][]=y&poll[expires_in]=600";
    const withPoll = await t.request(`/api/v1/statuses/${status.id}`, { method: "PUT", token: alice.token, body: pollBody, headers });
    // Attachments are kept unless media_ids[] says otherwise: a poll with them is refused.
    expect(withPoll.status).toBe(422);
    const replaced = `${pollBody}&media_ids[]=`;
    const cleared = await t.request(`/api/v1/statuses/${status.id}`, { method: "PUT", token: alice.token, body: replaced, headers });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as any).poll.options.map((o: any) => o.title)).toEqual(["x", "y"]);
  });
});

describe("what an edit sets off", () => {
  test("home timelines show the edit at once; streams get status.update; rebloggers an update notification", async () => {
    const status = await postStatus(t, alice, "before");
    await post(t, `/api/v1/statuses/${status.id}/reblog`, carol.token);
    await t.deps.jobs.drain();
    const home = () => t.request("/api/v1/timelines/home?limit=5", { token: bob.token });
    expect(((await (await home()).json()) as any[]).find((s) => s.id === status.id)?.content).toBe("<p>before</p>");
    // Kept from the second asking on (timeline-pages.ts), so the edit must invalidate a kept page.
    await home();
    expect((await home()).headers.get("x-warren-cache")).toBe("hit");
    const signals: unknown[] = [];
    const off = t.deps.jobs.onEvent((event) => signals.push(event));
    await put(alice, status.id, { status: "after" });
    const page = (await (await home()).json()) as any[];
    expect(page.find((s) => s.id === status.id)?.content).toBe("<p>after</p>");
    await t.deps.jobs.drain();
    off();
    expect(signals).toContainEqual(expect.objectContaining({ kind: "status.update", statusId: normaliseId(status.id) }));
    const updates = async () => (await get(t, "/api/v1/notifications?types[]=update", carol.token)).body.filter((n: any) => n.status?.id === status.id);
    expect((await updates()).length).toBe(1);
    await put(alice, status.id, { status: "after again" });
    await t.deps.jobs.drain();
    const latest = await updates();
    expect(latest.length).toBe(1);
    expect(latest[0].status.content).toBe("<p>after again</p>");
    const bobUpdates = (await get(t, "/api/v1/notifications?types[]=update", bob.token)).body;
    expect(bobUpdates.filter((n: any) => n.status?.id === status.id)).toEqual([]);
  });
});
