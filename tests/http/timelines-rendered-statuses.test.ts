// Timeline pages are sent as text joined from each status's kept rendering (http/cache/rendered-statuses.ts)
// with the viewer's parts spliced in. With WARREN_CHECK_RESPONSES on, every page is also compared byte for byte
// with JSON.stringify of its Status objects (and those with the Status schema): these reads change what the
// kept renderings were made from (the status, its author, a mentioned account, an attachment) and what only
// the viewer sees, and each must show at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
let reader: User;
let author: User;
let other: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CHECK_RESPONSES: "on" });
  [reader, author, other] = [await newUser(t, "rs"), await newUser(t, "rs"), await newUser(t, "rs")];
  await follow(t, reader, author);
});
afterAll(() => t.close());

/** A page built afresh each time (a new max_id: no kept page), and the same page asked twice (kept). */
let n = 0;
async function homeOf(user: User): Promise<any[]> {
  const fresh = await get(t, `/api/v1/timelines/home?max_id=9${String(++n).padStart(17, "9")}`, user.token);
  expect(fresh.status).toBe(200);
  const repeated = await get(t, "/api/v1/timelines/home", user.token);
  expect(repeated.body).toEqual(fresh.body);
  return fresh.body;
}

test("counters, the author's profile and counters, a mentioned account, flags and the author's own view", async () => {
  const status = await postStatus(t, author, `hello @${other.username}`);
  await t.deps.jobs.drain();
  let [first] = await homeOf(reader);
  expect(first.id).toBe(status.id);
  expect(first.mentions.map((m: any) => m.username)).toEqual([other.username]);
  const before = first.account.statuses_count;

  // Someone else favourites it: favourites_count (the status), not the reader's flag.
  expect((await post(t, `/api/v1/statuses/${status.id}/favourite`, other.token)).status).toBe(200);
  [first] = await homeOf(reader);
  expect([first.favourites_count, first.favourited]).toEqual([1, false]);

  // The reader bookmarks it: only the reader's flag.
  expect((await post(t, `/api/v1/statuses/${status.id}/bookmark`, reader.token)).status).toBe(200);
  [first] = await homeOf(reader);
  expect([first.bookmarked, first.favourites_count]).toEqual([true, 1]);

  // The author posts again (statuses_count on every status of theirs) and renames (display_name).
  await postStatus(t, author, "second");
  await t.deps.jobs.drain();
  const renamed = await call(t, "PATCH", "/api/v1/accounts/update_credentials", author.token, { display_name: "Renamed" });
  expect(renamed.status).toBe(200);
  const page = await homeOf(reader);
  expect(page.map((s) => s.account.display_name)).toEqual(["Renamed", "Renamed"]);
  expect(page.map((s) => s.account.statuses_count)).toEqual([before + 1, before + 1]);

  // Unfavourited: the count goes back.
  expect((await post(t, `/api/v1/statuses/${status.id}/unfavourite`, other.token)).status).toBe(200);
  const again = (await homeOf(reader)).find((s) => s.id === status.id);
  expect([again.favourites_count, again.bookmarked]).toEqual([0, true]);

  // The author's own home: the same status, pinnable (pinned: false), through the same kept rendering.
  await follow(t, author, reader);
  const own = (await homeOf(author)).find((s: any) => s.id === status.id);
  expect(own.pinned).toBe(false);
});

test("a reblog wraps the kept rendering of the status it reblogs; anonymous pages have no viewer keys", async () => {
  const original = await postStatus(t, other, { status: "to be reblogged #rendered", visibility: "public" });
  expect((await post(t, `/api/v1/statuses/${original.id}/reblog`, author.token)).status).toBe(200);
  await t.deps.jobs.drain();
  const [wrapper] = await homeOf(reader);
  expect(wrapper.reblog.id).toBe(original.id);
  expect(wrapper.reblog.reblogs_count).toBe(1);
  const anonymous = await get(t, "/api/v1/timelines/tag/rendered");
  expect(anonymous.status).toBe(200);
  expect(anonymous.body[0].id).toBe(original.id);
  expect("favourited" in anonymous.body[0]).toBe(false);
  // Mastodon's quote_policy_for_account: nobody signed in may quote; a signed-in reader may quote a public post.
  expect(anonymous.body[0].quote_approval.current_user).toBe("denied");
  expect(wrapper.reblog.quote_approval.current_user).toBe("automatic");
});
