// A follow's notification goes with the follow (as Mastodon destroys it with the Follow): after an unfollow,
// a removal from followers, a block or a rejected request, following again notifies again. Job workers on.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, post, updateProfile, type User } from "./relationships-helpers.ts";

setDefaultTimeout(30_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

async function followNotifications(owner: User, from: User): Promise<string[]> {
  const res = await get(t, `/api/v1/notifications?types[]=follow&account_id=${from.id}`, owner.token);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((n) => n.id);
}

describe("the follow notification goes with the follow", () => {
  test("unfollow, then follow again: a new notification", async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    expect((await post(t, `/api/v1/accounts/${b.id}/follow`, a.token)).status).toBe(200);
    const first = await followNotifications(b, a);
    expect(first).toHaveLength(1);
    await post(t, `/api/v1/accounts/${b.id}/unfollow`, a.token);
    expect(await followNotifications(b, a)).toEqual([]);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    const again = await followNotifications(b, a);
    expect(again).toHaveLength(1);
    expect(again[0]).not.toBe(first[0]);
  });

  test("removed from followers, then follows again: a new notification", async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    await post(t, `/api/v1/accounts/${a.id}/remove_from_followers`, b.token);
    expect(await followNotifications(b, a)).toEqual([]);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    expect(await followNotifications(b, a)).toHaveLength(1);
  });

  test("block lifted before its clean-up ran, then follows again: a new notification", async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    const [first] = await followNotifications(b, a);
    await t.deps.jobs.drain();
    t.deps.jobs.pause();
    try {
      await post(t, `/api/v1/accounts/${a.id}/block`, b.token);
      // Gone in the request itself, not only when the deferred clean-up gets to it.
      expect(await followNotifications(b, a)).toEqual([]);
      await post(t, `/api/v1/accounts/${a.id}/unblock`, b.token);
      await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
      const again = await followNotifications(b, a);
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(first!);
    } finally {
      t.deps.jobs.resume();
    }
    await t.deps.jobs.drain();
    expect(await followNotifications(b, a)).toHaveLength(1);
  });

  test("a rejected request, then an accepted one: notified once accepted", async () => {
    const [a, b] = [await newUser(t), await newUser(t)];
    await updateProfile(t, b, { locked: true });
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    await post(t, `/api/v1/follow_requests/${a.id}/reject`, b.token);
    await post(t, `/api/v1/accounts/${b.id}/follow`, a.token);
    await post(t, `/api/v1/follow_requests/${a.id}/authorize`, b.token);
    expect(await followNotifications(b, a)).toHaveLength(1);
  });
});
