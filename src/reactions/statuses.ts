// What follows a status being posted, edited or deleted (domain/statuses): feeds and streams, notifications,
// conversations, tags, search, link cards, and the activities sent to other servers.
import type { Subscriber, SubscriberContext } from "../domain/events.ts";
import { fetchStatusCard } from "../domain/statuses/card.ts";
import { removeStatus } from "../domain/statuses/remove.ts";
import { notifyRebloggersOfEdit } from "../domain/statuses/edit-notify.ts";
import { notifyQuotersOfEdit } from "../domain/quotes/notify-update.ts";
import { forgetQuotesOf } from "../domain/quotes/attach.ts";
import { fanOutStatuses } from "../domain/timelines/fan-out.ts";
import { removeStatusFromTimelines } from "../domain/timelines/removal.ts";
import { removeMediaOfStatus } from "../domain/media/cleanup.ts";
import { countTagsOf } from "../domain/tags/history.ts";
import { countFeaturedUses, uncountFeaturedUses } from "../domain/tags/featured.ts";
import { addToConversations, removeFromConversations } from "../domain/conversations/record.ts";
import { notifySubscribers } from "../domain/notifications/subscribed.ts";
import { indexStatuses, unindexStatuses } from "../domain/search/indexing.ts";
import { sendCreate, sendDelete, sendQuoteRequest, sendUpdate } from "../federation/senders.ts";
import { getStatus } from "../store/statuses.ts";
import { LONG_RUNNING_MS, on, onlyIfStatusHas, streamStatusUpdate } from "./table.ts";

/** Fan-out of a new status or reblog: the same work, whichever event announced it. */
export const fanOut = <T extends "status.created" | "reblog.created">(name: "timelines.fan_out" | "timelines.fan_out_reblog", event: T): Subscriber<T> =>
  on<T>({
    name,
    on: event,
    lane: "realtime",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, recorded) => fanOutStatuses(ctx.store, ctx.emit, [recorded.payload.statusId]),
    runBatch: (ctx, events) => fanOutStatuses(ctx.store, ctx.emit, events.map((recorded) => recorded.payload.statusId)),
  });

/** The rest of a deletion: feeds first, while the record (author, tags, visibility) is still there, which
 * also signals `delete` to the streams; then its attachments (unless a redraft freed them), everything else
 * that refers to the status, and the record. */
export async function removeEverywhere(ctx: SubscriberContext, statusId: string): Promise<void> {
  await removeStatusFromTimelines(ctx.store, ctx.emit, statusId);
  const status = getStatus(ctx.store, statusId);
  if (status) await removeMediaOfStatus(ctx.store, ctx.config, status);
  await removeStatus(ctx.store, statusId);
}

/** A link card for the status's first link, when the event names one. */
const fetchCard = <T extends "status.created" | "status.updated">(name: "cards.fetch" | "cards.fetch_edited", event: T): Subscriber<T> =>
  on<T>({
    name,
    on: event,
    lane: "network",
    delayMs: (recorded) => (recorded.payload.firstLink ? 0 : null),
    run: (ctx, recorded) => fetchStatusCard(ctx.store, ctx.config, { statusId: recorded.payload.statusId, url: recorded.payload.firstLink! }),
  });

/** status.created: most rows have nothing to do unless the status has what they look for (`has`). */
const created: Subscriber<any>[] = [
  fanOut("timelines.fan_out", "status.created"),
  // Conversations (docs/conversations.md): direct threads per participant, the direct stream
  on({
    name: "conversations.add_status",
    on: "status.created",
    delayMs: onlyIfStatusHas("direct"),
    lane: "realtime",
    run: (ctx, event) => addToConversations(ctx.store, ctx.emit, event.payload.statusId),
  }),
  // A `status` notification to the followers who asked for one (follow option notify=true)
  on({
    name: "notifications.subscribed_status",
    on: "status.created",
    delayMs: onlyIfStatusHas("notifyingFollowers"),
    lane: "default",
    run: (ctx, event) => notifySubscribers(ctx, event.payload.statusId),
  }),
  on({
    name: "tags.count_use",
    on: "status.created",
    delayMs: onlyIfStatusHas("tags"),
    lane: "default",
    run: (ctx, event) => countTagsOf(ctx.store, event.payload.statusId),
  }),
  // Featured hashtags (docs/tags.md): each keeps its owner's count of statuses using it
  on({
    name: "featured_tags.count",
    on: "status.created",
    delayMs: onlyIfStatusHas("tags"),
    lane: "default",
    run: (ctx, event) => countFeaturedUses(ctx.store, event.payload.statusId),
  }),
  // Search index (docs/search.md): a batch's documents in one engine write
  on({
    name: "search.index_status",
    on: "status.created",
    lane: "index",
    run: (ctx, event) => indexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => indexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  fetchCard("cards.fetch", "status.created"),
  // A local quote of a remote status asks its author's server (federation/quotes.ts)
  on({
    name: "federation.quote_request",
    on: "status.created",
    delayMs: onlyIfStatusHas("pendingQuote"),
    lane: "network",
    localOnly: true,
    run: (ctx, event) => sendQuoteRequest(ctx, event.payload),
  }),
  on({
    name: "federation.send_create",
    on: "status.created",
    delayMs: onlyIfStatusHas("remoteAudience"),
    lane: "network",
    localOnly: true,
    run: (ctx, event) => sendCreate(ctx, event.payload),
  }),
];

/** status.updated (domain/statuses/edit.ts): the record already holds the new version. */
const updated: Subscriber<any>[] = [
  streamStatusUpdate("streaming.status_update", "status.updated"),
  // Those who reblogged or quoted it hear of the edit
  on({ name: "notifications.status_update", on: "status.updated", lane: "default", run: (ctx, event) => notifyRebloggersOfEdit(ctx, event.payload.statusId, event.at) }),
  on({ name: "notifications.quoted_update", on: "status.updated", lane: "default", run: (ctx, event) => notifyQuotersOfEdit(ctx, event.payload.statusId, event.at) }),
  on({
    name: "search.reindex_status",
    on: "status.updated",
    lane: "default",
    run: (ctx, event) => indexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => indexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  fetchCard("cards.fetch_edited", "status.updated"),
  on({ name: "federation.send_status_update", on: "status.updated", lane: "network", localOnly: true, run: (ctx, event) => sendUpdate(ctx, event.payload) }),
];

/** status.deleted (domain/statuses/delete.ts): the rest of the removal, each part on its own. */
const deleted: Subscriber<any>[] = [
  on({ name: "statuses.removal", on: "status.deleted", lane: "default", run: (ctx, event) => removeEverywhere(ctx, event.payload.statusId) }),
  on({ name: "quotes.removal", on: "status.deleted", lane: "default", run: (ctx, event) => forgetQuotesOf(ctx.store, event.payload.statusId) }),
  on({ name: "conversations.remove_status", on: "status.deleted", lane: "default", run: (ctx, event) => removeFromConversations(ctx.store, event.payload.statusId) }),
  on({ name: "featured_tags.uncount", on: "status.deleted", lane: "default", run: (ctx, event) => uncountFeaturedUses(ctx.store, event.payload.statusId) }),
  on({
    name: "search.remove_status",
    on: "status.deleted",
    lane: "default",
    run: (ctx, event) => unindexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => unindexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  on({ name: "federation.send_delete", on: "status.deleted", lane: "network", localOnly: true, run: (ctx, event) => sendDelete(ctx, event.payload) }),
];

export const STATUS_REACTIONS: readonly Subscriber<any>[] = [...created, ...updated, ...deleted];
