// Notification policy (v2) and notification requests: what the policy filters stays out of every normal list
// and lands in a request per sender; accepting merges and lets the sender through, dismissing deletes; drop
// drops. Also the v2 grouping window (12 hours from a group's start) and expand_accounts=partial_avatars.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { notify } from "../../src/domain/notifications/notify.ts";
import { openSse, settle, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";
import { call, favourite, follow, get, newUser, notifications, post, postStatus, type User } from "./notifications-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const policy = (user: User) => get(t, "/api/v2/notifications/policy", user.token);
const setPolicy = (user: User, json: Record<string, unknown>) => call(t, "PATCH", "/api/v2/notifications/policy", user.token, json);
const requests = (user: User, query = "") => get(t, `/api/v1/notifications/requests${query}`, user.token);
const ids = (body: { id: string }[]) => body.map((n) => n.id);

/** `owner` filters accounts it does not follow; `stranger` mentions it, `friend` (followed) too. */
async function filteringScene() {
  const [owner, stranger, friend] = [await newUser(t, "p"), await newUser(t, "p"), await newUser(t, "p")];
  expect((await setPolicy(owner, { for_not_following: "filter" })).status).toBe(200);
  await follow(t, owner, friend);
  const held = await postStatus(t, stranger, `hello @${owner.username}`);
  const shown = await postStatus(t, friend, `hi @${owner.username}`);
  return { owner, stranger, friend, held, shown };
}

describe("GET/PATCH /api/v2/notifications/policy", () => {
  test("defaults as Mastodon's, every reference key, partial updates, bad values 422", async () => {
    const user = await newUser(t, "p");
    const res = await policy(user);
    expect(res.status).toBe(200);
    expect(missingKeys(res.body, referenceKeys("GET /api/v2/notifications/policy"))).toEqual([]);
    expect(res.body).toEqual({
      for_not_following: "accept",
      for_not_followers: "accept",
      for_new_accounts: "accept",
      for_private_mentions: "filter",
      for_limited_accounts: "filter",
      for_bots: "accept",
      summary: { pending_requests_count: 0, pending_notifications_count: 0 },
    });
    const patched = await setPolicy(user, { for_new_accounts: "drop", for_bots: "filter" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ for_new_accounts: "drop", for_bots: "filter", for_private_mentions: "filter", for_not_following: "accept" });
    expect((await policy(user)).body).toEqual(patched.body);
    expect((await setPolicy(user, { for_not_following: "maybe" })).status).toBe(422);
    expect((await policy(user)).body.for_not_following).toBe("accept");
  });

  test("a token is required, with the notifications scopes", async () => {
    expect((await get(t, "/api/v2/notifications/policy")).status).toBe(401);
    const reader = await newUser(t, "p", "read:accounts write:accounts");
    expect((await policy(reader)).status).toBe(403);
    expect((await setPolicy(reader, { for_bots: "drop" })).status).toBe(403);
  });
});

describe("filtered notifications", () => {
  test("stay out of v1, v2 and unread_count; include_filtered and account_id show them", async () => {
    const { owner, stranger, friend, held, shown } = await filteringScene();
    const normal = (await notifications(t, owner)).body as { status?: { id: string }; filtered?: boolean; account: { id: string } }[];
    expect(normal.map((n) => n.status?.id)).toEqual([shown.id]);
    expect(normal[0]!.filtered).toBeUndefined();
    const grouped = await get(t, "/api/v2/notifications", owner.token);
    expect(grouped.body.notification_groups.map((g: { status_id: string }) => g.status_id)).toEqual([shown.id]);
    expect((await get(t, "/api/v1/notifications/unread_count", owner.token)).body.count).toBe(1);
    expect((await get(t, "/api/v2/notifications/unread_count", owner.token)).body.count).toBe(1);

    const all = (await notifications(t, owner, "?include_filtered=true")).body as { status: { id: string }; filtered?: boolean }[];
    expect(all.map((n) => [n.status.id, n.filtered ?? false])).toEqual([[shown.id, false], [held.id, true]]);
    const v2all = await get(t, "/api/v2/notifications?include_filtered=true", owner.token);
    expect(v2all.body.notification_groups).toHaveLength(2);
    const fromStranger = (await notifications(t, owner, `?account_id=${stranger.id}`)).body as { status: { id: string } }[];
    expect(fromStranger.map((n) => n.status.id)).toEqual([held.id]);
    // The friend's notifications are not the stranger's.
    expect(((await notifications(t, owner, `?account_id=${friend.id}`)).body as unknown[]).length).toBe(1);
  });

  test("one request per sender, with its count and last status; the policy's summary counts it", async () => {
    const { owner, stranger, held } = await filteringScene();
    const second = await postStatus(t, stranger, `again @${owner.username}`);
    const list = await requests(owner);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const keys = referenceKeys("GET /api/v1/notifications/requests").filter((k) => !k.startsWith("last_status.") && !k.startsWith("account."));
    expect(missingKeys(list.body, keys)).toEqual([]);
    expect(list.body[0]).toMatchObject({ account: { id: stranger.id }, notifications_count: "2", last_status: { id: second.id } });
    const one = await get(t, `/api/v1/notifications/requests/${list.body[0].id}`, owner.token);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(list.body[0].id);
    expect((await policy(owner)).body.summary).toEqual({ pending_requests_count: 1, pending_notifications_count: 2 });
    expect(held.id).not.toBe(second.id);
  });

  test("accepting merges the held notifications and lets the sender through from then on", async () => {
    const { owner, stranger, held, shown } = await filteringScene();
    const [request] = (await requests(owner)).body;
    expect((await post(t, `/api/v1/notifications/requests/${request.id}/accept`, owner.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await get(t, "/api/v1/notifications/requests/merged", owner.token)).body).toEqual({ merged: true });
    expect((await get(t, `/api/v1/notifications/requests/${request.id}`, owner.token)).status).toBe(404);
    expect((await requests(owner)).body).toEqual([]);
    const later = await postStatus(t, stranger, `and now @${owner.username}`);
    const normal = (await notifications(t, owner)).body as { status: { id: string }; filtered?: boolean }[];
    expect(normal.map((n) => n.status.id)).toEqual([later.id, shown.id, held.id]);
    expect(normal.every((n) => n.filtered === undefined)).toBe(true);
    expect((await requests(owner)).body).toEqual([]);
  });

  test("merged is false until the merge job has run", async () => {
    const { owner } = await filteringScene();
    const [request] = (await requests(owner)).body;
    t.deps.jobs.pause();
    try {
      await post(t, `/api/v1/notifications/requests/${request.id}/accept`, owner.token);
      expect((await get(t, "/api/v1/notifications/requests/merged", owner.token)).body).toEqual({ merged: false });
    } finally {
      t.deps.jobs.resume();
    }
    await t.deps.jobs.drain();
    expect((await get(t, "/api/v1/notifications/requests/merged", owner.token)).body).toEqual({ merged: true });
  });

  test("dismissing deletes the held notifications; the sender's next one opens a new request", async () => {
    const { owner, stranger } = await filteringScene();
    const [request] = (await requests(owner)).body;
    expect((await post(t, `/api/v1/notifications/requests/${request.id}/dismiss`, owner.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await notifications(t, owner, `?account_id=${stranger.id}`)).body).toEqual([]);
    expect((await requests(owner)).body).toEqual([]);
    const again = await postStatus(t, stranger, `still here @${owner.username}`);
    const [next] = (await requests(owner)).body;
    expect(next).toMatchObject({ notifications_count: "1", last_status: { id: again.id } });
    expect(next.id).not.toBe(request.id);
    expect(((await notifications(t, owner)).body as unknown[]).length).toBe(1);
  });

  test("bulk accept and dismiss take id[] and touch only the caller's requests", async () => {
    const owner = await newUser(t, "p");
    const victim = (await filteringScene()).owner;
    await setPolicy(owner, { for_not_following: "filter" });
    const [s1, s2] = [await newUser(t, "p"), await newUser(t, "p")];
    await postStatus(t, s1, `one @${owner.username}`);
    await postStatus(t, s2, `two @${owner.username}`);
    const mine = ids((await requests(owner)).body);
    const theirs = ids((await requests(victim)).body);
    expect(mine).toHaveLength(2);
    // Someone else's request id: ignored in bulk, 404 alone.
    expect((await post(t, "/api/v1/notifications/requests/dismiss", owner.token, { id: [theirs[0], "nonsense"] })).status).toBe(200);
    expect((await post(t, `/api/v1/notifications/requests/${theirs[0]}/accept`, owner.token)).status).toBe(404);
    expect((await get(t, `/api/v1/notifications/requests/${theirs[0]}`, owner.token)).status).toBe(404);
    expect((await post(t, `/api/v1/notifications/requests/${theirs[0]}/dismiss`, owner.token)).status).toBe(404);
    expect(ids((await requests(victim)).body)).toEqual(theirs);
    expect((await post(t, "/api/v1/notifications/requests/accept", owner.token, { id: mine })).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await requests(owner)).body).toEqual([]);
    expect(((await notifications(t, owner)).body as unknown[]).length).toBe(2);
    // No ids is nothing to do, as Mastodon's Array(params[:id]).
    expect((await post(t, "/api/v1/notifications/requests/accept", owner.token, {})).status).toBe(200);
  });

  test("bulk dismiss reads Mastodon.py's id[][]= form (a list of one-id lists, as Rack parses it)", async () => {
    const owner = await newUser(t, "p");
    await setPolicy(owner, { for_not_following: "filter" });
    for (const n of [1, 2, 3]) await postStatus(t, await newUser(t, "p"), `n${n} @${owner.username}`);
    const [a, b, c] = ids((await requests(owner)).body);
    const body = new URLSearchParams([["id[][]", a!], ["id[][]", b!]]).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await t.request("/api/v1/notifications/requests/dismiss", { method: "POST", token: owner.token, headers, body });
    expect(res.status).toBe(200);
    expect(ids((await requests(owner)).body)).toEqual([c!]);
  });

  test("requests page by id with Link headers", async () => {
    const owner = await newUser(t, "p");
    await setPolicy(owner, { for_not_following: "filter" });
    for (let i = 0; i < 3; i++) await postStatus(t, await newUser(t, "p"), `n${i} @${owner.username}`);
    const all = ids((await requests(owner)).body);
    const first = await requests(owner, "?limit=2");
    expect(ids(first.body)).toEqual(all.slice(0, 2));
    expect(first.headers.get("link")).toContain(`max_id=${all[1]}`);
    expect(ids((await requests(owner, `?limit=2&max_id=${all[1]}`)).body)).toEqual(all.slice(2));
    expect(ids((await requests(owner, `?min_id=${all[2]}`)).body)).toEqual(all.slice(0, 2));
  });

  test("a blocked sender's request is not shown", async () => {
    const { owner, stranger } = await filteringScene();
    expect((await requests(owner)).body).toHaveLength(1);
    await post(t, `/api/v1/accounts/${stranger.id}/block`, owner.token);
    expect((await requests(owner)).body).toEqual([]);
    expect((await policy(owner)).body.summary.pending_requests_count).toBe(0);
  });
});

describe("policy categories", () => {
  test("drop leaves no notification and no request", async () => {
    const [owner, stranger] = [await newUser(t, "p"), await newUser(t, "p")];
    await setPolicy(owner, { for_not_following: "drop" });
    await postStatus(t, stranger, `hey @${owner.username}`);
    expect((await notifications(t, owner, "?include_filtered=true")).body).toEqual([]);
    expect((await requests(owner)).body).toEqual([]);
  });

  test("private mentions are filtered by default unless they answer the recipient", async () => {
    const [owner, stranger] = [await newUser(t, "p"), await newUser(t, "p")];
    await postStatus(t, stranger, { status: `secret @${owner.username}`, visibility: "direct" });
    expect((await notifications(t, owner)).body).toEqual([]);
    expect((await requests(owner)).body).toHaveLength(1);
    // The owner writes to the stranger privately; the stranger's answer gets through.
    const mine = await postStatus(t, owner, { status: `psst @${stranger.username}`, visibility: "direct" });
    const answer = await postStatus(t, stranger, { status: `@${owner.username} yes?`, visibility: "direct", in_reply_to_id: mine.id });
    expect(((await notifications(t, owner)).body as { status: { id: string } }[]).map((n) => n.status.id)).toEqual([answer.id]);
  });

  test("bots, new accounts and non-followers; follows, favourites and staff-free types alike", async () => {
    const [owner, bot, fan] = [await newUser(t, "p"), await newUser(t, "p"), await newUser(t, "p")];
    await call(t, "PATCH", "/api/v1/accounts/update_credentials", bot.token, { bot: true });
    await setPolicy(owner, { for_bots: "filter", for_new_accounts: "accept" });
    const own = await postStatus(t, owner, "mine");
    await favourite(t, bot, own.id);
    await favourite(t, fan, own.id);
    expect(((await notifications(t, owner)).body as { account: { id: string } }[]).map((n) => n.account.id)).toEqual([fan.id]);
    // Once followed, a bot is not a stranger any more.
    await follow(t, owner, bot);
    await follow(t, bot, owner);
    expect(((await notifications(t, owner)).body as { type: string; account: { id: string } }[]).map((n) => [n.type, n.account.id])).toEqual([
      ["follow", bot.id],
      ["favourite", fan.id],
    ]);
    await setPolicy(owner, { for_new_accounts: "filter" });
    const late = await newUser(t, "p");
    await follow(t, late, owner);
    expect(((await notifications(t, owner)).body as unknown[]).length).toBe(2);
    await setPolicy(owner, { for_new_accounts: "accept", for_not_followers: "filter" });
    await favourite(t, late, own.id);
    // A follower of less than three days is not a follower yet.
    expect(((await notifications(t, owner)).body as unknown[]).length).toBe(2);
  });
});

describe("v2 grouping window and partial accounts", () => {
  test("expand_accounts=partial_avatars: each group's newest account in full, the others partial", async () => {
    const [owner, f1, f2, f3] = [await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w")];
    const own = await postStatus(t, owner, "partial");
    for (const f of [f1, f2, f3]) await favourite(t, f, own.id);
    const full = await get(t, "/api/v2/notifications", owner.token);
    expect(full.body.partial_accounts).toBeUndefined();
    expect(full.body.accounts).toHaveLength(3);
    const res = await get(t, "/api/v2/notifications?expand_accounts=partial_avatars", owner.token);
    expect(res.status).toBe(200);
    expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([f3.id]);
    expect(res.body.partial_accounts.map((a: { id: string }) => a.id).sort()).toEqual([f1.id, f2.id].sort());
    const partialKeys = referenceKeys("GET /api/v2/notifications").filter((k) => k.startsWith("partial_accounts.")).map((k) => k.slice(17));
    expect(Object.keys(res.body.partial_accounts[0]).sort()).toEqual(partialKeys.sort());
  });
  test("a group absorbs the same kind for 12 hours from its start, then a new one begins", async () => {
    const [owner, a, b, c, d] = [await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w")];
    const hour = 3_600_000;
    const start = Math.floor(Date.now() / hour) * hour - 30 * hour;
    // Back-dated: the records carry these times (their ids, which never go back in a thread, are today's).
    await t.deps.store.write(() => {
      notify(t.deps, { type: "follow", recipientId: owner.id, fromAccountId: a.id }, start + 10);
      notify(t.deps, { type: "follow", recipientId: owner.id, fromAccountId: b.id }, start + 5 * hour);
      notify(t.deps, { type: "follow", recipientId: owner.id, fromAccountId: c.id }, start + 11 * hour + 59 * 60_000);
      notify(t.deps, { type: "follow", recipientId: owner.id, fromAccountId: d.id }, start + 12 * hour + 10);
    });
    const v1 = (await notifications(t, owner)).body as { account: { id: string }; group_key: string }[];
    const keyOf = (u: User) => v1.find((n) => n.account.id === u.id)!.group_key;
    expect(keyOf(a)).toBe(`follow-${start / hour}`);
    expect([keyOf(b), keyOf(c)]).toEqual([keyOf(a), keyOf(a)]);
    expect(keyOf(d)).toBe(`follow-${start / hour + 12}`);
    // A v2 page lists each row in its own group, whatever the ids.
    expect((await get(t, "/api/v2/notifications", owner.token)).status).toBe(200);
  });
});

describe("streams", () => {
  test("a held notification is not streamed; accepting its request streams notifications_merged", async () => {
    const { t: app, base } = await startListeningApp();
    try {
      const [owner, stranger, friend] = [await newUser(app, "ps"), await newUser(app, "ps"), await newUser(app, "ps")];
      await call(app, "PATCH", "/api/v2/notifications/policy", owner.token, { for_not_following: "filter" });
      await follow(app, owner, friend);
      const stream = await openSse(base, "/api/v1/streaming/user/notification", owner.token);
      try {
        await postStatus(app, stranger, `held @${owner.username}`);
        const shown = await postStatus(app, friend, `shown @${owner.username}`);
        await eventually(() => stream.events.find((e) => e.event === "notification" && JSON.parse(e.data).status?.id === shown.id), { what: "the friend's notification" });
        await settle(app);
        expect(stream.events.filter((e) => e.event === "notification")).toHaveLength(1);
        const [request] = (await get(app, "/api/v1/notifications/requests", owner.token)).body;
        await post(app, `/api/v1/notifications/requests/${request.id}/accept`, owner.token);
        const merged = await eventually(() => stream.events.find((e) => e.event === "notifications_merged"), { what: "notifications_merged" });
        expect(merged.data).toBe("1");
      } finally {
        stream.close();
      }
    } finally {
      await stopListeningApp(app);
    }
  });
});
