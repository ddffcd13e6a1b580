// Follow option notify=true: a `status` notification (and its stream event) for each new post of the
// followed account that reaches the follower's home; not for reblogs, replies to others, or what the
// follower may not see. Changing the option keeps the follow (no new follow notification). Workers on.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

const statusNotifications = async (user: User) =>
  ((await get(t, "/api/v1/notifications?types[]=status", user.token)).body as any[]).map((n) => ({ type: n.type, status: n.status?.id, from: n.account.id }));

async function settle() {
  await t.deps.jobs.drain();
}

test("each new post notifies the subscribed follower; reblogs, replies to others and hidden posts do not", async () => {
  const [author, fan, plain, other] = [await newUser(t, "n"), await newUser(t, "n"), await newUser(t, "n"), await newUser(t, "n")];
  const followed = await post(t, `/api/v1/accounts/${author.id}/follow`, fan.token, { notify: true });
  expect(followed.body).toMatchObject({ following: true, notifying: true });
  await post(t, `/api/v1/accounts/${author.id}/follow`, plain.token);

  const first = await postStatus(t, author, "first post");
  const privatePost = await postStatus(t, author, { status: "followers only", visibility: "private" });
  const selfReply = await postStatus(t, author, { status: "thread continues", in_reply_to_id: first.id });
  const otherPost = await postStatus(t, other, "someone else");
  await postStatus(t, author, { status: `@${other.username} a reply`, in_reply_to_id: otherPost.id });
  await post(t, `/api/v1/statuses/${otherPost.id}/reblog`, author.token);
  await postStatus(t, author, { status: `@${other.username} a secret`, visibility: "direct" });
  await settle();

  const got = await statusNotifications(fan);
  expect(got.map((n) => n.status).sort()).toEqual([first.id, privatePost.id, selfReply.id].sort());
  expect(got.every((n) => n.type === "status" && n.from === author.id)).toBe(true);
  expect(await statusNotifications(plain)).toEqual([]);
  // The author's own notifications are untouched by it.
  expect(await statusNotifications(author)).toEqual([]);
});

test("changing the options keeps the follow: no new follow notification; notify=false stops them", async () => {
  const [author, fan] = [await newUser(t, "o"), await newUser(t, "o")];
  await post(t, `/api/v1/accounts/${author.id}/follow`, fan.token);
  await settle();
  const follows = async () => ((await get(t, "/api/v1/notifications?types[]=follow", author.token)).body as any[]).length;
  expect(await follows()).toBe(1);

  const on = await post(t, `/api/v1/accounts/${author.id}/follow`, fan.token, { notify: true });
  expect(on.body).toMatchObject({ following: true, notifying: true });
  await postStatus(t, author, "with notify");
  await settle();
  expect(await statusNotifications(fan)).toHaveLength(1);
  expect(await follows()).toBe(1);

  const off = await post(t, `/api/v1/accounts/${author.id}/follow`, fan.token, { notify: false });
  expect(off.body).toMatchObject({ following: true, notifying: false });
  await postStatus(t, author, "without notify");
  await settle();
  expect(await statusNotifications(fan)).toHaveLength(1);
  expect(await follows()).toBe(1);
  expect((await get(t, `/api/v1/accounts/${fan.id}/followers`, fan.token)).status).toBe(200);
});

test("unfollowing, blocking or muting with notifications ends them", async () => {
  const [author, leaver, blocked, muter] = [await newUser(t, "u"), await newUser(t, "u"), await newUser(t, "u"), await newUser(t, "u")];
  for (const fan of [leaver, blocked, muter]) await post(t, `/api/v1/accounts/${author.id}/follow`, fan.token, { notify: true });
  await post(t, `/api/v1/accounts/${author.id}/unfollow`, leaver.token);
  await post(t, `/api/v1/accounts/${blocked.id}/block`, author.token);
  await post(t, `/api/v1/accounts/${author.id}/mute`, muter.token, { notifications: true });
  await postStatus(t, author, "after all that");
  await settle();
  for (const fan of [leaver, blocked, muter]) expect(await statusNotifications(fan)).toEqual([]);
  // Following again with notify works again.
  await post(t, `/api/v1/accounts/${author.id}/follow`, leaver.token, { notify: true });
  const again = await postStatus(t, author, "welcome back");
  await settle();
  expect((await statusNotifications(leaver)).map((n) => n.status)).toEqual([again.id]);
});
