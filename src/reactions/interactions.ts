// What follows a reblog or a favourite, given or taken back (domain/statuses): feeds, the deferred half of an
// unfavourite, and the Announce, Like and Undo sent to other servers (federation/status-delivery.ts).
import type { Subscriber } from "../domain/events.ts";
import { completeFavouriteRemoval } from "../domain/statuses/favourite.ts";
import { sendAnnounce, sendLike, sendPollVote, sendUndoAnnounce, sendUndoLike } from "../federation/senders.ts";
import { fanOut, removeEverywhere } from "./statuses.ts";
import { on } from "./table.ts";

export const INTERACTION_REACTIONS: readonly Subscriber<any>[] = [
  fanOut("timelines.fan_out_reblog", "reblog.created"),
  on({ name: "federation.send_announce", on: "reblog.created", lane: "network", localOnly: true, run: (ctx, event) => sendAnnounce(ctx, event.payload) }),
  on({ name: "statuses.reblog_removal", on: "reblog.removed", lane: "default", run: (ctx, event) => removeEverywhere(ctx, event.payload.statusId) }),
  on({ name: "federation.send_undo_announce", on: "reblog.removed", lane: "network", localOnly: true, run: (ctx, event) => sendUndoAnnounce(ctx, event.payload) }),
  on({ name: "federation.send_like", on: "favourite.created", lane: "network", localOnly: true, run: (ctx, event) => sendLike(ctx, event.payload) }),
  // The favourite is already forgotten and counted down: its rows and notification go here
  on({
    name: "favourites.removal",
    on: "favourite.removed",
    lane: "default",
    run: (ctx, event) => completeFavouriteRemoval(ctx.store, { id: event.payload.favouriteId, accountId: event.payload.accountId, statusId: event.payload.statusId }),
  }),
  on({ name: "federation.send_undo_like", on: "favourite.removed", lane: "network", localOnly: true, run: (ctx, event) => sendUndoLike(ctx, event.payload) }),
  // A local vote on another server's poll goes to its author (federation/poll-votes-out.ts)
  on({ name: "federation.send_poll_vote", on: "poll.voted", lane: "network", localOnly: true, run: (ctx, event) => sendPollVote(ctx, event.payload) }),
];
