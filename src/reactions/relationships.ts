// What follows a follow, block, mute or list change (domain/relationships, domain/lists): home and list feeds
// filled or emptied in the background, the deferred clean-ups, the follow request mail, and the Follow, Accept,
// Reject, Undo and Block sent to other servers (federation/follows.ts, federation/blocks.ts).
import type { Subscriber } from "../domain/events.ts";
import { mailFollowRequest } from "../domain/relationships/follow-request-mail.ts";
import { removeExpiredMute } from "../domain/relationships/mute.ts";
import { cleanUpAfterBlock } from "../domain/relationships/block-cleanup.ts";
import { cleanUpAfterDomainBlock } from "../domain/relationships/domain-blocks.ts";
import { backfillHome, backfillList, forgetFollow, removeListFeed } from "../domain/timelines/follows.ts";
import { sendAcceptOf, sendBlock, sendFollow, sendRejectOf, sendUnblock, sendUnfollow } from "../federation/senders.ts";
import { LONG_RUNNING_MS, on } from "./table.ts";

export const RELATIONSHIP_REACTIONS: readonly Subscriber<any>[] = [
  // Follows
  on({
    name: "timelines.backfill_follow",
    on: "follow.created",
    lane: "backfill",
    run: (ctx, event) => backfillHome(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({ name: "mail.follow_request", on: "follow.requested", lane: "network", run: (ctx, event) => mailFollowRequest(ctx.store, ctx.config, event.payload) }),
  on({ name: "federation.send_follow", on: "follow.requested", lane: "network", localOnly: true, run: (ctx, event) => sendFollow(ctx, event.payload) }),
  on({
    name: "timelines.backfill_accepted_follow",
    on: "follow.accepted",
    lane: "backfill",
    run: (ctx, event) => backfillHome(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({ name: "federation.send_accept", on: "follow.accepted", lane: "network", localOnly: true, run: (ctx, event) => sendAcceptOf(ctx, event.payload) }),
  on({ name: "federation.send_reject", on: "follow.rejected", lane: "network", localOnly: true, run: (ctx, event) => sendRejectOf(ctx, event.payload) }),
  on({
    name: "timelines.forget_follow",
    on: "follow.removed",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => forgetFollow(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({ name: "federation.send_unfollow", on: "follow.removed", lane: "network", localOnly: true, run: (ctx, event) => sendUnfollow(ctx, event.payload, event.at) }),

  // Blocks and mutes: the deferred halves of actions the API makes asynchronous
  on({
    name: "relationships.block_cleanup",
    on: "block.created",
    lane: "default",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => cleanUpAfterBlock(ctx.store, event.payload),
  }),
  on({ name: "federation.send_block", on: "block.created", lane: "network", localOnly: true, run: (ctx, event) => sendBlock(ctx, event.payload) }),
  on({ name: "federation.send_unblock", on: "block.removed", lane: "network", localOnly: true, run: (ctx, event) => sendUnblock(ctx, event.payload, event.at) }),
  on({
    name: "relationships.domain_block_cleanup",
    on: "domain_block.created",
    lane: "default",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => cleanUpAfterDomainBlock(ctx, event.payload.accountId, event.payload.domain),
  }),
  on({
    name: "relationships.mute_expiry",
    on: "mute.created",
    lane: "default",
    delayMs: (event) => (event.payload.expiresAt === null ? null : event.payload.expiresAt - event.at),
    run: (ctx, event) => removeExpiredMute(ctx.store, { muterId: event.payload.accountId, targetId: event.payload.targetId }),
  }),

  // Lists (domain/lists)
  on({
    name: "timelines.backfill_list_member",
    on: "list.member_added",
    lane: "backfill",
    run: (ctx, event) => backfillList(ctx.store, event.payload.ownerId, event.payload.listId, event.payload.accountId),
  }),
  on({ name: "timelines.remove_list_feed", on: "list.deleted", lane: "backfill", run: (ctx, event) => removeListFeed(ctx.store, event.payload.listId) }),
];
