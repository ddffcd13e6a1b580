// The events backbone: an action records its event inside its own write, and each subscriber of that event
// runs as a job of its own, on worker threads, retried on its own; an event that came from another server
// is never given to the subscribers that deliver out. The test subscribers are in fixtures/subscribers.ts.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { recordEvent, subscribersOf } from "../../src/domain/events.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { pendingJobs } from "../../src/store/jobs.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

type Runs = { runs: number; attempts: number[] } | undefined;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_JOB_HANDLERS_EXTRA: join(import.meta.dir, "fixtures/subscribers.ts") });
  await t.deps.jobs.start(); // the extra subscribers are registered once the queue has loaded its modules
});
afterAll(() => t.close());

const runs = (key: string): Runs => t.deps.store.db.meta.get(`test:${key}`);

function lastFavouriteId(accountId: string): string {
  let id = "";
  for (const { key } of t.deps.store.db.favourites.getRange({ start: [normaliseId(accountId)!], end: [normaliseId(accountId)!, "\uffff"] })) {
    id = (key as string[])[1]!;
  }
  return id;
}

test("one favourite reaches every subscriber of favourite.created, each as its own job", async () => {
  // Beside the built-in ones (federation.send_like), the test's own.
  const names = subscribersOf("favourite.created").map((s) => s.name);
  expect(names.filter((name) => name.startsWith("test.")).sort()).toEqual(["test.count_favourites", "test.deliver_favourites", "test.flaky_on_favourites"]);
  const alice = await signedInUser(t, "alice");
  const bob = await signedInUser(t, "bob");
  const post = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "like me" } });
  const status = (await post.json()) as { id: string };
  expect((await t.request(`/api/v1/statuses/${status.id}/favourite`, { method: "POST", token: bob.token })).status).toBe(200);
  const favouriteId = lastFavouriteId(bob.id);

  expect(await eventually(() => runs(`counted:${favouriteId}`))).toEqual({ runs: 1, attempts: [1] });
  expect(await eventually(() => runs(`delivered:${favouriteId}`))).toEqual({ runs: 1, attempts: [1] });
  // The flaky one failed once and was retried alone: the others did not run again.
  expect(await eventually(() => (runs(`flaky:${favouriteId}`)?.runs === 2 ? runs(`flaky:${favouriteId}`) : undefined))).toEqual({ runs: 2, attempts: [1, 2] });
  await t.deps.jobs.drain();
  expect(runs(`counted:${favouriteId}`)).toEqual({ runs: 1, attempts: [1] });
  expect(runs(`delivered:${favouriteId}`)).toEqual({ runs: 1, attempts: [1] });
});

test("an event of remote origin is not given to subscribers that deliver out", async () => {
  const payload = { favouriteId: "000000000000000042", accountId: "000000000000000001", statusId: "000000000000000002" };
  t.deps.jobs.pause();
  try {
    const given = await t.deps.store.write(() => recordEvent(t.deps, "favourite.created", payload, "remote"));
    expect(given.sort()).toEqual(["test.count_favourites", "test.flaky_on_favourites"]);
    const queued = pendingJobs(t.deps.store).filter((job) => (job.payload as { event?: { payload?: { favouriteId?: string } } }).event?.payload?.favouriteId === payload.favouriteId);
    expect(queued.map((job) => job.type).sort()).toEqual(["test.count_favourites", "test.flaky_on_favourites"]);
  } finally {
    t.deps.jobs.resume();
  }
  expect(await eventually(() => runs(`counted:${payload.favouriteId}`))).toEqual({ runs: 1, attempts: [1] });
  await t.deps.jobs.drain();
  expect(runs(`delivered:${payload.favouriteId}`)).toBeUndefined();
});

test("an action that fails records nothing: its event's jobs roll back with its write", async () => {
  const before = pendingJobs(t.deps.store).length;
  t.deps.jobs.pause();
  try {
    const failed = t.deps.store.write(() => {
      recordEvent(t.deps, "favourite.created", { favouriteId: "000000000000000043", accountId: "1", statusId: "2" });
      throw new Error("the action failed after recording");
    });
    await expect(failed).rejects.toThrow("the action failed after recording");
    expect(pendingJobs(t.deps.store).length).toBe(before);
  } finally {
    t.deps.jobs.resume();
  }
});

test("a new status gives jobs only to the subscribers that have something to do with it", async () => {
  const given = (has: Record<string, boolean> | undefined) =>
    recordEvent({ jobs: { enqueue: () => {} } as never }, "status.created", { statusId: "1", accountId: "2", firstLink: null, ...(has ? { has } : {}) } as never)
      .filter((name) => !name.startsWith("test."))
      .sort();
  const plain = { tags: false, direct: false, pendingQuote: false, notifyingFollowers: false, remoteAudience: false };
  const every = { tags: true, direct: true, pendingQuote: true, notifyingFollowers: true, remoteAudience: true };
  expect(given(plain)).toEqual(["search.index_status", "timelines.fan_out"]);
  expect(given(every)).toEqual([
    "conversations.add_status",
    "featured_tags.count",
    "federation.quote_request",
    "federation.send_create",
    "notifications.subscribed_status",
    "search.index_status",
    "tags.count_use",
    "timelines.fan_out",
  ]);
  // Events recorded before the facts existed (queued by an older release) give every subscriber its job.
  expect(given(undefined)).toEqual(given(every));
});
