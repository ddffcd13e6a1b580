// v2 grouped notifications: groups and their keys, paging by groups, one group, dismissing a group (ungrouped
// too), clear, unread_count and a group's accounts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { referenceKeys } from "../helpers/reference-keys.ts";
import { favourite, follow, get, newUser, notifications, post, postStatus, reblog, types, type User } from "./notifications-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const reference = referenceKeys("GET /api/v2/notifications");
/** Groups are per clock hour: a scene must not straddle one, or its follows would land in two groups. */
async function awayFromHourBoundary(marginMs = 20_000) {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < marginMs) await Bun.sleep(left + 100);
}

const grouped = (user: User, query = "") => get(t, `/api/v2/notifications${query}`, user.token);

/** owner's post favourited by f1 then f2 and reblogged by f1; follows from f1 and f2; a mention from f2. */
async function scene() {
  await awayFromHourBoundary();
  const [owner, f1, f2] = [await newUser(t, "g"), await newUser(t, "g"), await newUser(t, "g")];
  const own = await postStatus(t, owner, "group me");
  await favourite(t, f1, own.id);
  await favourite(t, f2, own.id);
  await reblog(t, f1, own.id);
  await follow(t, f1, owner);
  await follow(t, f2, owner);
  const mention = await postStatus(t, f2, `hi @${owner.username}`);
  const v1 = (await notifications(t, owner)).body as { id: string; type: string; group_key: string }[];
  return { owner, f1, f2, own, mention, v1 };
}

describe("GET /api/v2/notifications", () => {
  test("groups favourites and reblogs per status and follows per hour; the rest stay ungrouped", async () => {
    const { owner, f1, f2, own, mention, v1 } = await scene();
    const res = await grouped(owner);
    expect(res.status).toBe(200);
    for (const key of reference.filter((k) => !k.includes(".") && k !== "partial_accounts")) expect(Object.keys(res.body)).toContain(key);
    const groups = res.body.notification_groups;
    const mentionNote = v1.find((n) => n.type === "mention")!;
    const favKey = v1.find((n) => n.type === "favourite")!.group_key;
    expect(groups.map((g: { type: string }) => g.type)).toEqual(["mention", "follow", "reblog", "favourite"]);
    expect(groups[0]).toMatchObject({ group_key: `ungrouped-${mentionNote.id}`, notifications_count: 1, status_id: mention.id, sample_account_ids: [f2.id] });
    expect(groups[1]).toMatchObject({ group_key: v1.find((n) => n.type === "follow")!.group_key, notifications_count: 2, sample_account_ids: [f2.id, f1.id] });
    expect(groups[1].status_id).toBeUndefined();
    expect(groups[2]).toMatchObject({ group_key: expect.stringMatching(new RegExp(`^reblog-${own.id}-\\d+$`)), notifications_count: 1, status_id: own.id });
    const favs = v1.filter((n) => n.type === "favourite");
    expect(groups[3]).toMatchObject({
      group_key: favKey,
      notifications_count: 2,
      most_recent_notification_id: favs[0]!.id,
      page_max_id: favs[0]!.id,
      page_min_id: favs[1]!.id,
      sample_account_ids: [f2.id, f1.id],
    });
    for (const g of groups) for (const key of ["page_min_id", "page_max_id", "latest_page_notification_at"]) expect(g).toHaveProperty(key);
    expect(res.body.accounts.map((a: { id: string }) => a.id).sort()).toEqual([f1.id, f2.id].sort());
    expect(res.body.statuses.map((s: { id: string }) => s.id).sort()).toEqual([own.id, mention.id].sort());
    expect(res.headers.get("link")).toContain(`max_id=${favs[0]!.id}>; rel="next"`);
    expect(res.headers.get("link")).toContain(`min_id=${mentionNote.id}>; rel="prev"`);
  });

  test("grouped_types[], types[] and exclude_types[]", async () => {
    const { owner } = await scene();
    const only = (await grouped(owner, "?grouped_types[]=follow")).body.notification_groups;
    expect(only.map((g: { type: string }) => g.type)).toEqual(["mention", "follow", "reblog", "favourite", "favourite"]);
    expect(only[3].group_key).toStartWith("ungrouped-");
    expect((await grouped(owner, "?types[]=favourite")).body.notification_groups.map((g: { type: string }) => g.type)).toEqual(["favourite"]);
    const rest = (await grouped(owner, "?exclude_types[]=favourite&exclude_types[]=follow")).body.notification_groups;
    expect(rest.map((g: { type: string }) => g.type)).toEqual(["mention", "reblog"]);
  });

  test("limit counts groups; a group carries all its notifications up to the page and may come back on the next", async () => {
    const [owner, u1, u2, m] = [await newUser(t, "g"), await newUser(t, "g"), await newUser(t, "g"), await newUser(t, "g")];
    const own = await postStatus(t, owner, "paged");
    await favourite(t, u1, own.id);
    await postStatus(t, m, `one @${owner.username}`);
    await favourite(t, u2, own.id);
    await postStatus(t, m, `two @${owner.username}`);
    const [m2, fav2, m1, fav1] = (await notifications(t, owner)).body.map((n: { id: string }) => n.id);
    const first = await grouped(owner, "?limit=2");
    expect(first.body.notification_groups).toMatchObject([
      { type: "mention", most_recent_notification_id: m2 },
      { type: "favourite", notifications_count: 2, most_recent_notification_id: fav2, page_max_id: fav2, page_min_id: fav2, sample_account_ids: [u2.id, u1.id] },
    ]);
    expect(first.headers.get("link")).toContain(`max_id=${fav2}>; rel="next"`);
    // The last page (fewer groups than asked for): its favourite group reaches down to its oldest notification.
    expect((await grouped(owner, "?limit=3")).body.notification_groups[1]).toMatchObject({ page_min_id: fav2, notifications_count: 2 });
    expect((await grouped(owner, "?limit=4")).body.notification_groups[1]).toMatchObject({ page_min_id: fav1, page_max_id: fav2, notifications_count: 2 });
    const second = await grouped(owner, `?limit=2&max_id=${fav2}`);
    expect(second.body.notification_groups).toMatchObject([
      { type: "mention", most_recent_notification_id: m1 },
      { type: "favourite", notifications_count: 1, most_recent_notification_id: fav1, sample_account_ids: [u1.id] },
    ]);
    const forward = await grouped(owner, `?limit=1&min_id=${fav1}`);
    expect(forward.body.notification_groups).toMatchObject([{ type: "mention", most_recent_notification_id: m1 }]);
    const empty = await grouped(owner, `?max_id=${fav1}`);
    expect(empty.body).toEqual({ accounts: [], statuses: [], notification_groups: [] });
    expect(empty.headers.get("link")).toBeNull();
  });

  test("follow requests never appear; bad input and tokens", async () => {
    const owner = await newUser(t, "g");
    await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: owner.token, json: { locked: true } });
    const asker = await newUser(t, "g");
    await post(t, `/api/v1/accounts/${owner.id}/follow`, asker.token);
    expect((await grouped(owner)).body.notification_groups).toEqual([]);
    expect(await grouped(owner, "?expand_accounts=everything")).toMatchObject({ status: 400 });
    expect((await grouped(owner, "?expand_accounts=partial_avatars")).status).toBe(200);
    expect((await get(t, "/api/v2/notifications")).status).toBe(401);
    const statusesOnly = await newUser(t, "g", "read:statuses");
    expect(await grouped(statusesOnly)).toMatchObject({ status: 403, body: { error: "This action is outside the authorized scopes" } });
  });
});

describe("one group, its accounts, dismiss, clear, unread_count", () => {
  test("GET /:group_key answers one group (ungrouped-<id> too); 404 otherwise", async () => {
    const { owner, f1, f2, v1 } = await scene();
    const favKey = v1.find((n) => n.type === "favourite")!.group_key;
    const res = await get(t, `/api/v2/notifications/${favKey}`, owner.token);
    expect(res.status).toBe(200);
    expect(res.body.notification_groups).toMatchObject([{ group_key: favKey, notifications_count: 2, sample_account_ids: [f2.id, f1.id] }]);
    expect(res.body.notification_groups[0].page_min_id).toBeUndefined();
    const mention = v1.find((n) => n.type === "mention")!;
    expect((await get(t, `/api/v2/notifications/ungrouped-${mention.id}`, owner.token)).body.notification_groups[0]).toMatchObject({ type: "mention" });
    expect(await get(t, `/api/v2/notifications/${favKey}`, f1.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, "/api/v2/notifications/ungrouped-123", owner.token)).status).toBe(404);
    expect((await get(t, "/api/v2/notifications/nonsense", owner.token)).status).toBe(404);
    const accounts = await get(t, `/api/v2/notifications/${favKey}/accounts`, owner.token);
    expect(accounts.body.map((a: { id: string }) => a.id)).toEqual([f2.id, f1.id]);
    expect((await get(t, `/api/v2/notifications/${favKey}/accounts?limit=1`, owner.token)).body.map((a: { id: string }) => a.id)).toEqual([f2.id]);
  });

  test("dismissing a group removes all its notifications; ungrouped keys work too; clear removes the rest", async () => {
    const { owner, f1, v1 } = await scene();
    const favKey = v1.find((n) => n.type === "favourite")!.group_key;
    expect(await post(t, `/api/v2/notifications/${favKey}/dismiss`, f1.token)).toMatchObject({ status: 200, body: {} });
    expect(types((await notifications(t, owner)).body)).toContain("favourite");
    expect(await post(t, `/api/v2/notifications/${favKey}/dismiss`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect(types((await notifications(t, owner)).body)).toEqual(["mention", "follow", "follow", "reblog"]);
    const mention = v1.find((n) => n.type === "mention")!;
    expect((await post(t, `/api/v2/notifications/ungrouped-${mention.id}/dismiss`, owner.token)).status).toBe(200);
    expect(types((await notifications(t, owner)).body)).toEqual(["follow", "follow", "reblog"]);
    expect((await get(t, `/api/v2/notifications/ungrouped-${mention.id}`, owner.token)).status).toBe(404);
    const reader = await newUser(t, "g", "read");
    expect((await post(t, `/api/v2/notifications/${favKey}/dismiss`, reader.token)).status).toBe(403);
    expect(await post(t, "/api/v2/notifications/clear", owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await grouped(owner)).body.notification_groups).toEqual([]);
  });

  test("unread_count counts groups past the marker", async () => {
    const { owner, v1 } = await scene();
    const count = (query = "") => get(t, `/api/v2/notifications/unread_count${query}`, owner.token);
    expect(await count()).toMatchObject({ status: 200, body: { count: 4 } });
    expect((await count("?limit=1")).body).toEqual({ count: 1 });
    expect((await count("?grouped_types[]=follow")).body).toEqual({ count: 5 });
    await post(t, "/api/v1/markers", owner.token, { notifications: { last_read_id: v1.find((n) => n.type === "reblog")!.id } });
    expect((await count()).body).toEqual({ count: 2 });
    expect((await get(t, "/api/v2/notifications/unread_count")).status).toBe(401);
  });
});
