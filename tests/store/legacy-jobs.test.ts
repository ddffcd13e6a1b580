// Migration 3: jobs queued under the per-action types of before the events backbone become the jobs of the
// subscribers that now do that work, with the event they read, and run.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openJobQueue } from "../../src/compose.ts";
import { openStore } from "../../src/store/db.ts";
import { claimedJobs, pendingJobs } from "../../src/store/jobs.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import type { JobRecord } from "../../src/model/jobs.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-legacy-jobs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = (n: number) => String(n).padStart(18, "0");

function legacy(n: number, type: string, payload: unknown, runAt: number): JobRecord {
  return { v: 2, id: ID(n), type, lane: "default", payload, attempts: 0, maxAttempts: 8, createdAt: runAt, runAt, lastError: null };
}

test("every old job type is renamed to its subscriber, with its event, its lane, and runs", async () => {
  const now = Date.now();
  const old: [string, unknown][] = [
    ["status.created", { statusId: ID(100) }],
    ["status.removed", { statusId: ID(101) }],
    ["favourite.removed", { id: ID(102), accountId: ID(1), statusId: ID(103) }],
    ["block.created", { blockId: ID(104), blockerId: ID(1), targetId: ID(2) }],
    ["mute.expired", { muterId: ID(1), targetId: ID(2) }],
    ["card.fetch", { statusId: ID(105), url: "https://example.com/" }],
    ["follow_request.created", { requestId: ID(106), requesterId: ID(1), targetId: ID(2) }],
    ["timeline.follow_created", { followerId: ID(1), targetId: ID(2) }],
    ["timeline.follow_removed", { followerId: ID(1), targetId: ID(2) }],
    ["timeline.list_member_added", { ownerId: ID(1), listId: ID(107), accountId: ID(2) }],
    ["timeline.list_deleted", { listId: ID(107) }],
    ["notification.created", { recipientId: ID(1), notificationId: ID(108) }],
  ];
  const before = openStore(dir);
  await before.write(() => {
    before.db.meta.put("schema_version", 2);
    old.forEach(([type, payload], i) => before.db.jobs.put(["default", now, ID(i + 1)], legacy(i + 1, type, payload, now)));
    before.db.jobsClaimed.put(ID(50), { ...legacy(50, "status.removed", { statusId: ID(109) }, now), attempts: 1, claimedAt: now, owner: 2 ** 22 + 17 });
  });
  await before.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(3);
    const byId = new Map(pendingJobs(store, 1000).map((job) => [job.id, job]));
    const expected = [
      ["timelines.fan_out", "realtime", "status.created"],
      ["statuses.removal", "default", "status.deleted"],
      ["favourites.removal", "default", "favourite.removed"],
      ["relationships.block_cleanup", "default", "block.created"],
      ["relationships.mute_expiry", "default", "mute.created"],
      ["cards.fetch", "network", "status.created"],
      ["mail.follow_request", "network", "follow.requested"],
      ["timelines.backfill_follow", "backfill", "follow.created"],
      ["timelines.forget_follow", "backfill", "follow.removed"],
      ["timelines.backfill_list_member", "backfill", "list.member_added"],
      ["timelines.remove_list_feed", "backfill", "list.deleted"],
      ["streaming.notification", "realtime", "notification.created"],
    ];
    expected.forEach(([type, lane, event], i) => {
      const job = byId.get(ID(i + 1))!;
      expect({ type: job.type, lane: job.lane, event: (job.payload as { event: { type: string } }).event.type }).toEqual({ type: type!, lane: lane as JobRecord["lane"], event: event! });
    });
    expect((byId.get(ID(3))!.payload as { event: { payload: unknown } }).event.payload).toEqual({ favouriteId: ID(102), accountId: ID(1), statusId: ID(103) });
    expect(claimedJobs(store)).toMatchObject([{ id: ID(50), type: "statuses.removal", attempts: 1 }]);

    // Nothing they refer to exists, so each subscriber finds nothing to do, and succeeds.
    const config = loadConfig({ WARREN_DATA_DIR: dir, WARREN_JOB_WORKERS: "0", WARREN_ALLOW_PRIVATE_ADDRESSES: "false" });
    const jobs = openJobQueue(store, config);
    await jobs.start();
    await jobs.drain();
    await jobs.stop();
    expect(jobs.stats()).toEqual({ pending: 0, claimed: 0, dead: 0 });
  } finally {
    await store.close();
  }
});
