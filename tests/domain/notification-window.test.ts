// The kept notification window (domain/notifications/window.ts) answers a page of groups exactly as the store
// scan does (group.ts groupRows): the same rows, and the same row budget spent and stopping point, for every
// max_id, limit, type filter and grouped_types, including windows too small to hold the page.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { favourite, follow, mute, newUser, postStatus, reblog, type User } from "../http/notifications-helpers.ts";
import { groupRows } from "../../src/domain/notifications/group.ts";
import { notificationFilter } from "../../src/domain/notifications/read.ts";
import { NotificationWindow, windowGroupRows } from "../../src/domain/notifications/window.ts";
import { pageNotifications } from "../../src/store/notifications.ts";
import { RowBudget } from "../../src/model/paging.ts";

let t: TestApp;
let owner: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  owner = await newUser(t, "nw");
  const others = [await newUser(t, "nw"), await newUser(t, "nw"), await newUser(t, "nw")];
  const own = [await postStatus(t, owner, "one"), await postStatus(t, owner, "two")];
  for (const [i, other] of others.entries()) {
    await favourite(t, other, own[i % 2]!.id);
    await postStatus(t, other, `hello @${owner.username}`);
    await reblog(t, other, own[0]!.id);
    await follow(t, other, owner);
  }
  // Hidden rows: a muted sender's notifications are examined and skipped.
  await mute(t, owner, others[2]!);
  await t.deps.jobs.drain();
}, 60_000);
afterAll(() => t.close());

test("every page from the window is the store's, budget included", () => {
  const store = t.deps.store;
  const ids = pageNotifications(store, owner.id, { limit: 100 }, () => true).map((n) => n.id);
  expect(ids.length).toBeGreaterThan(10);
  const maxIds = [undefined, ids[0], ids[3], ids[7], ids.at(-1)];
  const filters = [notificationFilter([], []), notificationFilter(["favourite", "mention"], []), notificationFilter([], ["follow"])];
  const groupings = [null, new Set(["favourite"]), new Set<string>()];
  let compared = 0;
  for (const maxId of maxIds) {
    for (const limit of [1, 2, 5, 40]) {
      for (const budgetRows of [2, 5, 1000]) {
        for (const filter of filters) {
          for (const grouped of groupings) {
            const scanned = { limit, maxId, budget: new RowBudget(budgetRows) };
            const walked = { limit, maxId, budget: new RowBudget(budgetRows) };
            const expected = groupRows(store, owner.id, filter, grouped, scanned).map((n) => n.id);
            const answer = windowGroupRows(new NotificationWindow(store, owner.id), store, filter, grouped, walked);
            if (!answer) continue;
            compared++;
            expect([maxId, limit, budgetRows, answer.map((n) => n.id)]).toEqual([maxId, limit, budgetRows, expected]);
            expect(walked.budget).toEqual(scanned.budget);
          }
        }
      }
    }
  }
  expect(compared).toBeGreaterThan(400);
});
