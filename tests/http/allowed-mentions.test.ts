// allowed_mentions[] on POST /api/v1/statuses: a mention of anyone not listed refuses the post with Mastodon's
// 422 and the unexpected accounts; nothing is posted and nobody is notified.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, post, type User } from "./statuses-helpers.ts";

let t: TestApp;
let author: User;
let friend: User;
let stranger: User;

beforeAll(async () => {
  t = await startTestApp();
  [author, friend, stranger] = [await newUser(t, "m"), await newUser(t, "m"), await newUser(t, "m")];
});
afterAll(() => t.close());

const statusesOf = async (user: User) => (await get(t, `/api/v1/accounts/${user.id}/statuses`, user.token)).body as any[];

test("mentions within the allowed list post; others are a 422 naming them, and nothing is written", async () => {
  const ok = await post(t, "/api/v1/statuses", author.token, { status: `hi @${friend.username}`, allowed_mentions: [friend.id] });
  expect(ok.status).toBe(200);
  expect(ok.body.mentions.map((m: any) => m.id)).toEqual([friend.id]);

  const refused = await post(t, "/api/v1/statuses", author.token, {
    status: `hi @${friend.username} and @${stranger.username}`,
    allowed_mentions: [friend.id],
  });
  expect(refused.status).toBe(422);
  expect(refused.body.error).toBe("Post would be sent to unexpected accounts");
  expect(refused.body.unexpected_accounts.map((a: any) => [a.id, a.acct])).toEqual([[stranger.id, stranger.username]]);
  expect((await statusesOf(author)).length).toBe(1);
  await t.deps.jobs.drain();
  expect((await get(t, "/api/v1/notifications", stranger.token)).body).toEqual([]);

  // An empty list allows no mention; the form encoding works too; without the parameter anything goes.
  const none = await t.request("/api/v1/statuses", {
    method: "POST",
    token: author.token,
    form: { status: `hey @${friend.username}`, "allowed_mentions[]": "" },
  });
  expect(none.status).toBe(422);
  const plain = await post(t, "/api/v1/statuses", author.token, { status: "no mentions", allowed_mentions: [] });
  expect(plain.status).toBe(200);
  const free = await post(t, "/api/v1/statuses", author.token, { status: `@${stranger.username} hello` });
  expect(free.status).toBe(200);
});

test("a scheduled post is checked when it is scheduled", async () => {
  const at = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const refused = await post(t, "/api/v1/statuses", author.token, { status: `later @${stranger.username}`, scheduled_at: at, allowed_mentions: [friend.id] });
  expect(refused.status).toBe(422);
  expect(refused.body.unexpected_accounts.map((a: any) => a.id)).toEqual([stranger.id]);
  expect((await get(t, "/api/v1/scheduled_statuses", author.token)).body).toEqual([]);
  const scheduled = await post(t, "/api/v1/statuses", author.token, { status: `later @${friend.username}`, scheduled_at: at, allowed_mentions: [friend.id] });
  expect(scheduled.status).toBe(200);
  expect(scheduled.body.scheduled_at).toBeString();
});
