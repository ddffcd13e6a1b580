// The media-only public feeds (only_media) and the row budget of page scans, at the store and domain level:
// no HTTP path creates statuses with media yet (media upload is a later issue), so statuses carrying media
// go through the same creation hook a status does (distribute.onStatusCreated) and removal (removal.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { onStatusCreated } from "../../src/domain/timelines/distribute.ts";
import { removeStatusFromTimelines } from "../../src/domain/timelines/removal.ts";
import { newId } from "../../src/lib/ids.ts";
import { insertStatus } from "../../src/store/statuses.ts";
import { pagePublicFeed, type PublicFeed } from "../../src/store/timelines.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { RowBudget } from "../../src/model/paging.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

function statusRecord(fields: Partial<StatusRecord>): StatusRecord {
  const now = Date.now();
  const id = newId(now);
  return {
    v: 1, id, accountId: "000000000000000001", uri: `https://x.example/s/${id}`, url: null, local: true, text: "", content: "<p>x</p>",
    spoilerText: "", sensitive: false, visibility: "public", language: "en", inReplyToId: null, inReplyToAccountId: null, reblogOfId: null,
    applicationId: null, mentionIds: [], tags: [], mediaIds: [], repliesCount: 0, reblogsCount: 0, favouritesCount: 0, createdAt: now,
    editedAt: null, deletedAt: null, ...fields,
  };
}

async function create(fields: Partial<StatusRecord>): Promise<StatusRecord> {
  const status = statusRecord(fields);
  await t.deps.store.write(() => {
    insertStatus(t.deps.store, status);
    onStatusCreated(t.deps, status);
  });
  return status;
}

const feedIds = (feed: PublicFeed) => pagePublicFeed(t.deps.store, feed, { limit: 40 }, () => true).map((row) => row.key[1]);

describe("media feeds", () => {
  let local: StatusRecord;
  let remote: StatusRecord;

  beforeAll(async () => {
    local = await create({ mediaIds: ["1"] });
    remote = await create({ mediaIds: ["2", "3"], local: false });
    await create({});
    await create({ mediaIds: ["4"], visibility: "unlisted" });
    await create({ mediaIds: ["5"], inReplyToId: local.id, inReplyToAccountId: "000000000000000002" });
  });

  test("a public status with media gets rows in media and its origin's flavour, written with its public rows", () => {
    expect(feedIds("media")).toEqual([remote.id, local.id]);
    expect(feedIds("media:local")).toEqual([local.id]);
    expect(feedIds("media:remote")).toEqual([remote.id]);
    expect(feedIds("public")).toHaveLength(3);
  });

  test("removing the status removes its media rows with the others", async () => {
    await removeStatusFromTimelines(t.deps.store, () => {}, remote.id);
    expect(feedIds("media")).toEqual([local.id]);
    expect(feedIds("media:remote")).toEqual([]);
    expect(feedIds("public")).not.toContain(remote.id);
  });
});

describe("row budget", () => {
  test("a scan stops after the budget, counts what it examined and says where it stopped", async () => {
    const rows = [];
    for (let i = 0; i < 30; i++) rows.push(await create({ tags: ["budget"] }));
    const budget = new RowBudget(10);
    const kept = pagePublicFeed(t.deps.store, "tag:budget", { limit: 5, budget }, () => false);
    expect(kept).toEqual([]);
    expect(budget.examined).toBe(10);
    expect(budget.stoppedAt).toBe(rows[20]!.id);
    expect(budget.stoppedGoing).toBe("older");

    const upwards = new RowBudget(10);
    pagePublicFeed(t.deps.store, "tag:budget", { limit: 5, minId: rows[0]!.id, budget: upwards }, () => false);
    expect(upwards.stoppedAt).toBe(rows[10]!.id);
    expect(upwards.stoppedGoing).toBe("newer");
  });

  test("a scan that reaches the end of its range within the budget does not stop", () => {
    const budget = new RowBudget(30);
    pagePublicFeed(t.deps.store, "tag:budget", { limit: 40, budget }, () => false);
    expect(budget.examined).toBe(30);
    expect(budget.stoppedAt).toBeNull();
  });
});
