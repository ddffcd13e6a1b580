// src/reactions/relationships.ts: follows, blocks, mutes, domain blocks and lists; the backfills run in their
// own lane, a mute's end is a delayed job, and only local relationships are sent out.
import { expect, test } from "bun:test";
import { eventRecorder } from "./record.ts";

const { record, reached } = eventRecorder();

test("a follow backfills the follower's home in the backfill lane, and sends nothing (the request did)", async () => {
  expect(await record("follow.created", { followerId: "1", targetId: "2" })).toEqual([{ name: "timelines.backfill_follow", lane: "backfill", delayMs: 0 }]);
});

test("a follow request mails the target and sends a Follow when local", async () => {
  const request = { requestId: "9", requesterId: "1", targetId: "2" };
  expect(await reached("follow.requested", request)).toEqual(["federation.send_follow", "mail.follow_request"]);
  expect(await reached("follow.requested", request, "remote")).toEqual(["mail.follow_request"]);
});

test("accepting, rejecting and removing a follow", async () => {
  const follow = { followerId: "1", targetId: "2" };
  expect(await reached("follow.accepted", follow)).toEqual(["federation.send_accept", "timelines.backfill_accepted_follow"]);
  expect(await reached("follow.accepted", follow, "remote")).toEqual(["timelines.backfill_accepted_follow"]);
  expect(await reached("follow.rejected", { requesterId: "1", targetId: "2" })).toEqual(["federation.send_reject"]);
  expect(await reached("follow.rejected", { requesterId: "1", targetId: "2" }, "remote")).toEqual([]);
  expect(await reached("follow.removed", follow)).toEqual(["federation.send_unfollow", "timelines.forget_follow"]);
  expect(await reached("follow.removed", follow, "remote")).toEqual(["timelines.forget_follow"]);
});

test("a block cleans up (both ways) and is sent; its removal is only sent", async () => {
  const block = { blockId: "4", blockerId: "1", targetId: "2" };
  expect(await reached("block.created", block)).toEqual(["federation.send_block", "relationships.block_cleanup"]);
  expect(await reached("block.created", block, "remote")).toEqual(["relationships.block_cleanup"]);
  expect(await reached("block.removed", { blockerId: "1", targetId: "2" })).toEqual(["federation.send_unblock"]);
  expect(await reached("block.removed", { blockerId: "1", targetId: "2" }, "remote")).toEqual([]);
});

test("a mute with an end gets its expiry job at that end; one without an end gets none", async () => {
  const at = Date.now();
  const ending = await record("mute.created", { muteId: "3", accountId: "1", targetId: "2", expiresAt: at + 60_000 }, "local", at);
  expect(ending).toHaveLength(1);
  expect(ending[0]).toMatchObject({ name: "relationships.mute_expiry", lane: "default" });
  // runAt is the end (at + 60 s), counted here from the enqueue instant, a few ms after `at`
  expect(ending[0]!.delayMs).toBeGreaterThan(59_000);
  expect(ending[0]!.delayMs).toBeLessThanOrEqual(60_000);
  expect(await reached("mute.created", { muteId: "3", accountId: "1", targetId: "2", expiresAt: null })).toEqual([]);
  expect(await reached("mute.removed", { accountId: "1", targetId: "2" })).toEqual([]);
});

test("a mute whose end is already past expires at once, never before its event", async () => {
  const at = Date.now();
  const [job] = await record("mute.created", { muteId: "3", accountId: "1", targetId: "2", expiresAt: at - 5_000 }, "local", at);
  expect(job).toMatchObject({ name: "relationships.mute_expiry", delayMs: 0 });
});

test("a domain block ends follows in the background; lists backfill and drop their feeds", async () => {
  expect(await reached("domain_block.created", { accountId: "1", domain: "example.com" })).toEqual(["relationships.domain_block_cleanup"]);
  expect(await record("list.member_added", { ownerId: "1", listId: "7", accountId: "2" })).toEqual([{ name: "timelines.backfill_list_member", lane: "backfill", delayMs: 0 }]);
  expect(await reached("list.deleted", { listId: "7" })).toEqual(["timelines.remove_list_feed"]);
});
