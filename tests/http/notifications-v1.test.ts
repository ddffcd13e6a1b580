// v1 notifications: list with filters, paging and Link; one; dismiss; clear; unread_count; what is hidden.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { referenceKeys } from "../helpers/reference-keys.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { block, busyRecipient, call, follow, get, lockedUser, mute, newUser, notifications, post, postStatus, types } from "./notifications-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const reference = referenceKeys("GET /api/v1/notifications");

describe("GET /api/v1/notifications", () => {
  test("newest first, with every reference key; statuses where the type has one", async () => {
    const { owner, a, b, mention, own } = await busyRecipient(t);
    const res = await notifications(t, owner);
    expect(res.status).toBe(200);
    expect(types(res.body)).toEqual(["reblog", "favourite", "mention", "follow"]);
    const [rb, fav, men, fol] = res.body;
    for (const key of reference.filter((k) => !k.includes("."))) expect(Object.keys(rb)).toContain(key);
    expect(rb.status.id).toBe(own.id); // the original status, not the reblog wrapper
    expect(rb.account.id).toBe(b.id);
    expect(fav.group_key).toMatch(new RegExp(`^favourite-${own.id}-\\d+$`));
    expect(men).toMatchObject({ group_key: `ungrouped-${men.id}`, account: { id: a.id }, status: { id: mention.id } });
    expect(fol.status).toBeUndefined();
    expect(fol.group_key).toMatch(/^follow-\d+$/);
    expect(res.headers.get("link")).toContain(`max_id=${fol.id}>; rel="next"`);
    expect(res.headers.get("link")).toContain(`min_id=${rb.id}>; rel="prev"`);
  });

  test("types[], exclude_types[] (unknown types ignored) and account_id", async () => {
    const { owner, a } = await busyRecipient(t);
    expect(types((await notifications(t, owner, "?types[]=mention&types[]=follow&types[]=bogus")).body)).toEqual(["mention", "follow"]);
    expect(types((await notifications(t, owner, "?types=favourite")).body)).toEqual(["favourite"]);
    expect(types((await notifications(t, owner, "?exclude_types[]=reblog&exclude_types[]=favourite")).body)).toEqual(["mention", "follow"]);
    expect(types((await notifications(t, owner, `?account_id=${a.id}`)).body)).toEqual(["mention", "follow"]);
    expect((await notifications(t, owner, "?account_id=nope")).body).toEqual([]);
    expect(types((await notifications(t, owner, "?include_filtered=true&supported_types[]=mention")).body).length).toBe(4);
  });

  test("paging: limit, max_id, since_id, min_id; Link on any non-empty page, none when empty", async () => {
    const { owner } = await busyRecipient(t);
    const all = (await notifications(t, owner)).body.map((n: { id: string }) => n.id);
    const first = await notifications(t, owner, "?limit=2");
    expect(first.body.map((n: { id: string }) => n.id)).toEqual(all.slice(0, 2));
    expect(first.headers.get("link")).toContain(`max_id=${all[1]}`);
    expect((await notifications(t, owner, `?max_id=${all[1]}`)).body.map((n: { id: string }) => n.id)).toEqual(all.slice(2));
    expect((await notifications(t, owner, `?since_id=${all[3]}&limit=1`)).body.map((n: { id: string }) => n.id)).toEqual([all[0]]);
    expect((await notifications(t, owner, `?min_id=${all[3]}&limit=1`)).body.map((n: { id: string }) => n.id)).toEqual([all[2]]);
    const last = await notifications(t, owner, `?max_id=${all[3]}`);
    expect(last.body).toEqual([]);
    expect(last.headers.get("link")).toBeNull();
    expect((await notifications(t, owner, "?limit=500")).body.length).toBe(4);
    expect((await notifications(t, owner, "?limit=abc")).body).toEqual([]);
  });

  test("follow requests never appear; authorising one gives a follow", async () => {
    const owner = await lockedUser(t);
    const asker = await newUser(t, "n");
    await post(t, `/api/v1/accounts/${owner.id}/follow`, asker.token);
    expect((await notifications(t, owner)).body).toEqual([]);
    expect((await notifications(t, owner, "?types[]=follow_request")).body).toEqual([]);
    expect((await post(t, `/api/v1/follow_requests/${asker.id}/authorize`, owner.token)).status).toBe(200);
    expect(types((await notifications(t, owner)).body)).toEqual(["follow"]);
  });

  test("blocked and notification-muted senders and deleted or invisible statuses are hidden", async () => {
    const { owner, a, b, mention } = await busyRecipient(t);
    await mute(t, owner, b);
    expect(types((await notifications(t, owner)).body)).toEqual(["mention", "follow"]);
    await call(t, "DELETE", `/api/v1/statuses/${mention.id}`, a.token);
    expect(types((await notifications(t, owner)).body)).toEqual(["follow"]);
    await block(t, owner, a);
    expect((await notifications(t, owner)).body).toEqual([]);
    // A private mention stops being visible when its author no longer lets the recipient see it.
    const c = await newUser(t, "n");
    const other = await newUser(t, "n");
    await follow(t, other, c);
    const secret = await postStatus(t, c, { status: `psst @${other.username}`, visibility: "private" });
    expect((await notifications(t, other)).body.map((n: { status?: { id: string } }) => n.status?.id)).toContain(secret.id);
    await block(t, c, other);
    expect((await notifications(t, other)).body).toEqual([]);
  });

  test("scopes, tokens and bad input", async () => {
    const reader = await newUser(t, "n", "read:notifications");
    expect((await notifications(t, reader)).status).toBe(200);
    const statusesOnly = await newUser(t, "n", "read:statuses");
    expect(await notifications(t, statusesOnly)).toMatchObject({ status: 403, body: { error: "This action is outside the authorized scopes" } });
    expect(await get(t, "/api/v1/notifications")).toMatchObject({ status: 401 });
    expect(await get(t, "/api/v1/notifications", "nonsense")).toMatchObject({ status: 401, body: { error: "The access token is invalid" } });
    const { access_token } = await appToken(t, await createClientApp(t), "read");
    expect(await get(t, "/api/v1/notifications", access_token)).toMatchObject({ status: 422, body: { error: "This method requires an authenticated user" } });
    expect((await notifications(t, reader, `?types[]=${"x".repeat(200)}`)).status).toBe(422);
  });
});

describe("one, dismiss, clear", () => {
  test("GET /:id: own only", async () => {
    const { owner, a } = await busyRecipient(t);
    const [first] = (await notifications(t, owner)).body;
    expect(await get(t, `/api/v1/notifications/${first.id}`, owner.token)).toMatchObject({ status: 200, body: { id: first.id, type: "reblog" } });
    expect(await get(t, `/api/v1/notifications/${first.id}`, a.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, "/api/v1/notifications/999999", owner.token)).status).toBe(404);
    expect((await get(t, "/api/v1/notifications/abc", owner.token)).status).toBe(404);
  });

  test("dismiss one (404 for others' and unknown), then clear all", async () => {
    const { owner, a } = await busyRecipient(t);
    const [first, second] = (await notifications(t, owner)).body;
    expect(await post(t, `/api/v1/notifications/${first.id}/dismiss`, a.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect(await post(t, `/api/v1/notifications/${first.id}/dismiss`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await post(t, `/api/v1/notifications/${first.id}/dismiss`, owner.token)).status).toBe(404);
    expect((await notifications(t, owner)).body[0].id).toBe(second.id);
    const reader = await newUser(t, "n", "read");
    expect(await post(t, "/api/v1/notifications/clear", reader.token)).toMatchObject({ status: 403 });
    expect(await post(t, "/api/v1/notifications/clear", owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await notifications(t, owner)).body).toEqual([]);
    expect((await post(t, "/api/v1/notifications/clear")).status).toBe(401);
  });
});

describe("GET /api/v1/notifications/unread_count", () => {
  test("counts past the marker, with filters and limit", async () => {
    const { owner } = await busyRecipient(t);
    const count = (query = "") => get(t, `/api/v1/notifications/unread_count${query}`, owner.token);
    expect(await count()).toMatchObject({ status: 200, body: { count: 4 } });
    expect((await count("?limit=2")).body).toEqual({ count: 2 });
    expect((await count("?types[]=mention")).body).toEqual({ count: 1 });
    expect((await count("?exclude_types[]=mention")).body).toEqual({ count: 3 });
    const ids = (await notifications(t, owner)).body.map((n: { id: string }) => n.id);
    await post(t, "/api/v1/markers", owner.token, { notifications: { last_read_id: ids[2] } });
    expect((await count()).body).toEqual({ count: 2 });
    expect((await get(t, "/api/v1/notifications/unread_count")).status).toBe(401);
  });
});
