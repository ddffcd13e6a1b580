// The Status entity on every endpoint that returns one: Mastodon 4.6's keys (reference file), the keys that
// appear only for some viewers (viewer flags, `filtered`, `pinned`), `text` only in DELETE's answer, and
// accounts and counters that are never stale, however often the same status is read.
import { beforeAll, describe, expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { call, follow, get, newUser, post, postStatus, VIEWER_KEYS } from "./statuses-helpers.ts";

const { t, alice, bob } = seededWorld({ users: ["alice", "bob"] });
beforeAll(async () => {
  await follow(t, bob, alice);
});

/** Reference keys of features Warren has (no media, polls, quotes or card details on a status without one). */
function expectedKeys(endpoint: string): string[] {
  return referenceKeys(endpoint).filter(
    (key) => !/^(media_attachments|poll|quote|card|params|reblog\.reblog|scheduled_at)(\.|$)/.test(key) || ["poll", "quote", "card", "media_attachments"].includes(key),
  );
}

/** Keys of empty arrays (fields, roles) cannot be checked on a fresh account; everything else must be there. */
const missing = (body: unknown, endpoint: string) =>
  missingKeys(body, expectedKeys(endpoint)).filter((key) => !/(^|\.)account\.(fields|roles)\./.test(key));

describe("keys", () => {
  test("every status-returning endpoint carries Mastodon's keys", async () => {
    const own = await post(t, "/api/v1/statuses", alice.token, { status: `hello @${bob.username} #keys`, spoiler_text: "cw" });
    expect(missing(own.body, "POST /api/v1/statuses")).toEqual([]);
    expect(missing((await get(t, `/api/v1/statuses/${own.body.id}`, alice.token)).body, "GET /api/v1/statuses/:id")).toEqual([]);
    for (const action of ["favourite", "unfavourite", "bookmark", "unbookmark", "pin", "unpin", "unreblog"]) {
      const res = await post(t, `/api/v1/statuses/${own.body.id}/${action}`, alice.token);
      expect(res.status).toBe(200);
      expect(missing(res.body, `POST /api/v1/statuses/:id/${action}`)).toEqual([]);
    }
    // A reblog of one's own status: the nested status carries `pinned` too.
    const reblog = await post(t, `/api/v1/statuses/${own.body.id}/reblog`, alice.token);
    expect(missing(reblog.body, "POST /api/v1/statuses/:id/reblog")).toEqual([]);
    const list = await get(t, `/api/v1/accounts/${alice.id}/statuses`, alice.token);
    expect(list.body.map((s: any) => s.reblog?.id ?? s.id)).toEqual([own.body.id, own.body.id]);
    for (const status of [list.body[0].reblog, list.body[1]]) expect(missing(status, "GET /api/v1/accounts/:id/statuses")).toEqual([]);
    await post(t, `/api/v1/statuses/${own.body.id}/bookmark`, alice.token);
    const bookmarks = await get(t, "/api/v1/bookmarks", alice.token);
    expect(bookmarks.body.map((s: any) => s.id)).toEqual([own.body.id]);
    expect(missing(bookmarks.body[0], "GET /api/v1/bookmarks")).toEqual([]);
    const context = await get(t, `/api/v1/statuses/${own.body.id}/context`, alice.token);
    expect(Object.keys(context.body).sort()).toEqual(referenceKeys("GET /api/v1/statuses/:id/context"));
    const deleted = await call(t, "DELETE", `/api/v1/statuses/${own.body.id}`, alice.token);
    expect(missing(deleted.body, "DELETE /api/v1/statuses/:id").filter((k) => !k.startsWith("reblog."))).toEqual([]);
  });

  test("`text` only in DELETE's answer, `content` everywhere else", async () => {
    const status = await postStatus(t, alice, "source <b>text</b>");
    expect(status).not.toHaveProperty("text");
    expect((await get(t, `/api/v1/statuses/${status.id}`)).body).not.toHaveProperty("text");
    const deleted = (await call(t, "DELETE", `/api/v1/statuses/${status.id}`, alice.token)).body;
    expect(deleted.text).toBe("source <b>text</b>");
    expect(deleted).not.toHaveProperty("content");
  });

  test("viewer flags and `filtered` only with a user token; `pinned` only for the author's own pinnable statuses", async () => {
    const status = await postStatus(t, alice, "pinnable");
    const direct = await postStatus(t, alice, { status: `psst @${bob.username}`, visibility: "direct" });
    const anonymous = (await get(t, `/api/v1/statuses/${status.id}`)).body;
    for (const key of [...VIEWER_KEYS, "pinned"]) expect(anonymous).not.toHaveProperty(key);
    const asBob = (await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body;
    for (const key of VIEWER_KEYS) expect(asBob).toHaveProperty(key);
    expect(asBob).not.toHaveProperty("pinned");
    expect(asBob.filtered).toEqual([]);
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).body.pinned).toBe(false);
    expect((await get(t, `/api/v1/statuses/${direct.id}`, alice.token)).body).not.toHaveProperty("pinned");
    // A reblog wrapper never carries `pinned`; the status it wraps does, for its author.
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    const seenByAlice = (await get(t, `/api/v1/statuses/${reblog.id}`, alice.token)).body;
    expect(seenByAlice).not.toHaveProperty("pinned");
    expect(seenByAlice.reblog.pinned).toBe(false);
    expect((await get(t, `/api/v1/statuses/${reblog.id}`, bob.token)).body.reblog).not.toHaveProperty("pinned");
  });

  test("GET of a reblog answers the wrapper with the status nested and the viewer's flags of the original", async () => {
    const status = await postStatus(t, alice, "boost me");
    const reblog = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    await post(t, `/api/v1/statuses/${status.id}/favourite`, bob.token);
    const res = await get(t, `/api/v1/statuses/${reblog.id}`, bob.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reblog.id, content: "", application: null, favourited: true, reblogged: true, reblog: { id: status.id, favourited: true, reblogged: true, favourites_count: 1, reblogs_count: 1 } });
    expect(res.body.account.id).toBe(bob.id);
    expect(res.body.reblog.account.id).toBe(alice.id);
    const anonymous = await get(t, `/api/v1/statuses/${reblog.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.reblog.id).toBe(status.id);
  });
});

describe("never stale", () => {
  test("the author's and mentioned accounts follow every change, read after read", async () => {
    const carol = await newUser(t, "carol");
    const status = await postStatus(t, carol, `hi @${bob.username}`);
    const read = async (token?: string) => (await get(t, `/api/v1/statuses/${status.id}`, token)).body;
    const before = await read(carol.token);
    expect(before.account.statuses_count).toBe(1);
    expect((await read(carol.token)).account.statuses_count).toBe(1);
    await postStatus(t, carol, "another");
    expect((await read(carol.token)).account.statuses_count).toBe(2);
    expect((await read()).account.statuses_count).toBe(2);
    const renamed = await call(t, "PATCH", "/api/v1/accounts/update_credentials", carol.token, { display_name: "Carol C." });
    expect(renamed.status).toBe(200);
    expect((await read()).account.display_name).toBe("Carol C.");
    expect((await read(bob.token)).account.display_name).toBe("Carol C.");
    await follow(t, bob, carol);
    expect((await read(carol.token)).account.followers_count).toBe(1);
    // feature_approval differs between anonymous and signed-in readers, whatever was read first.
    expect((await read()).account.feature_approval.current_user).toBe("denied");
    expect((await read(bob.token)).account.feature_approval.current_user).toBe("automatic");
    expect((await read()).account.feature_approval.current_user).toBe("denied");
    expect((await read()).mentions).toEqual([{ id: bob.id, username: bob.username, acct: bob.username, url: `${t.deps.config.url}/@${bob.username}` }]);
  });

  test("counters and flags in the answers of writes are the state after the write", async () => {
    const status = await postStatus(t, alice, "count me");
    expect((await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body.favourites_count).toBe(0);
    expect((await post(t, `/api/v1/statuses/${status.id}/favourite`, bob.token)).body).toMatchObject({ favourited: true, favourites_count: 1 });
    expect((await get(t, `/api/v1/statuses/${status.id}`, bob.token)).body).toMatchObject({ favourited: true, favourites_count: 1 });
    const wrapper = (await post(t, `/api/v1/statuses/${status.id}/reblog`, bob.token)).body;
    expect(wrapper.account.statuses_count).toBe((await get(t, `/api/v1/accounts/${bob.id}`)).body.statuses_count);
    const deleted = (await call(t, "DELETE", `/api/v1/statuses/${wrapper.id}`, bob.token)).body;
    expect(deleted.account.statuses_count).toBe(wrapper.account.statuses_count - 1);
  });
});
