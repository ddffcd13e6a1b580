// Who reacts to which event (src/domain/events.ts). Each subscriber is a job type of its own, run on its lane
// and retried on its own; every one is idempotent, since a job may run twice after a crash. Search indexing,
// Web Push and federation delivery join this list as subscribers: they need nothing from the actions.
import { mailFollowRequest } from "./relationships/follow-request-mail.ts";
import { removeExpiredMute } from "./relationships/mute.ts";
import { cleanUpAfterBlock } from "./relationships/block-cleanup.ts";
import { cleanUpAfterDomainBlock } from "./relationships/domain-blocks.ts";
import { completeFavouriteRemoval } from "./statuses/favourite.ts";
import { fetchStatusCard } from "./statuses/card.ts";
import { removeStatus } from "./statuses/remove.ts";
import { notifyRebloggersOfEdit } from "./statuses/edit-notify.ts";
import { notifyQuotersOfEdit } from "./quotes/notify-update.ts";
import { forgetQuotesOf } from "./quotes/attach.ts";
import { STREAM_TOPIC } from "./streaming/signals.ts";
import { fanOutStatuses } from "./timelines/fan-out.ts";
import { backfillHome, backfillList, forgetFollow, removeListFeed } from "./timelines/follows.ts";
import { removeStatusFromTimelines } from "./timelines/removal.ts";
import { removeMediaOfStatus, expireUnattached, UNATTACHED_TTL_MS } from "./media/cleanup.ts";
import { processQueuedMedia } from "./media/process.ts";
import { countTagsOf } from "./tags/history.ts";
import { addToConversations, removeFromConversations } from "./conversations/record.ts";
import { countFeaturedUses, uncountFeaturedUses } from "./tags/featured.ts";
import { notifyStaffOfReport } from "./reports/notify-staff.ts";
import { notifySubscribers } from "./notifications/subscribed.ts";
import { dropDismissedRequest, mergeAcceptedRequest } from "./notifications/requests.ts";
import { indexAccounts, indexStatuses, unindexStatuses } from "./search/indexing.ts";
import { deliverPush } from "./push/deliver.ts";
import { generateAnnualReport } from "./annual-reports/generate.ts";
import { removeAccountData } from "./admin/accounts-removal.ts";
import { applyDomainBlockToAccounts } from "./admin/domain-block-accounts.ts";
import { runImport } from "./accounts/import.ts";
import { mailAccountWarning } from "./admin/accounts-mail.ts";
import { mailConfirmation } from "./auth/confirmation.ts";
import { mailPasswordReset } from "./auth/password-reset.ts";
import { mailEmailChange } from "./auth/email-change.ts";
import { notifyStaffOfSignUp } from "./auth/notify-staff-sign-up.ts";
import { MAX_TRANSCODE_SECONDS } from "../config.ts";
import { MEDIA_LIMITS } from "./limits.ts";
import { getStatus } from "../store/statuses.ts";
import type { DomainEvent, EventType, StatusCreatedFacts, Subscriber, SubscriberContext } from "./events.ts";

/**
 * For subscribers of `status.created` with nothing to do unless the new status has `fact` (events recorded
 * before the facts existed give every subscriber its job).
 */
const onlyIfStatusHas = (fact: keyof StatusCreatedFacts) => (event: DomainEvent<"status.created">) => (event.payload.has?.[fact] === false ? null : 0);

/** Helps TypeScript tie each subscriber's `run` to its event's payload. */
const on = <T extends EventType>(subscriber: Subscriber<T>): Subscriber<T> => subscriber;

/** The rest of a deletion: feeds first, while the record (author, tags, visibility) is still there, which
 * also signals `delete` to the streams; then its attachments (unless a redraft freed them), everything else
 * that refers to the status, and the record. */
async function removeEverywhere(ctx: SubscriberContext, statusId: string): Promise<void> {
  await removeStatusFromTimelines(ctx.store, ctx.emit, statusId);
  const status = getStatus(ctx.store, statusId);
  if (status) await removeMediaOfStatus(ctx.store, ctx.config, status);
  await removeStatus(ctx.store, statusId);
}

/** Fan-out of big audiences and feed clean-up after unfollowing a prolific account take time. */
const LONG_RUNNING_MS = 600_000;

/** Fan-out of a new status or reblog: the same work, whichever event announced it. */
const fanOut = <T extends "status.created" | "reblog.created">(name: string, event: T): Subscriber<T> => ({
  name,
  on: event,
  lane: "realtime",
  timeoutMs: LONG_RUNNING_MS,
  run: (ctx, recorded) => fanOutStatuses(ctx.store, ctx.emit, [recorded.payload.statusId]),
  runBatch: (ctx, events) => fanOutStatuses(ctx.store, ctx.emit, events.map((recorded) => recorded.payload.statusId)),
});

/** Search indexing of accounts: the same work, whichever event announced the change. */
const indexAccount = <T extends "account.created" | "account.updated">(name: string, event: T): Subscriber<T> => ({
  name,
  on: event,
  lane: "default",
  run: (ctx, recorded) => indexAccounts(ctx, [recorded.payload.accountId]),
  runBatch: (ctx, events) => indexAccounts(ctx, events.map((recorded) => recorded.payload.accountId)),
});

/** An upload that became free (uploaded, or freed by a redraft) goes a day later unless it is on a status. */
const expireMedia = <T extends "media.uploaded" | "media.detached">(name: string, event: T): Subscriber<T> => ({
  name,
  on: event,
  lane: "default",
  delayMs: () => UNATTACHED_TTL_MS,
  run: async (ctx, recorded) => {
    await expireUnattached(ctx.store, ctx.config, recorded.payload.mediaId);
  },
});

export const SUBSCRIBERS: readonly Subscriber<any>[] = [
  // Timelines and streams
  fanOut("timelines.fan_out", "status.created"),
  fanOut("timelines.fan_out_reblog", "reblog.created"),
  on({ name: "statuses.removal", on: "status.deleted", lane: "default", run: (ctx, event) => removeEverywhere(ctx, event.payload.statusId) }),
  on({ name: "statuses.reblog_removal", on: "reblog.removed", lane: "default", run: (ctx, event) => removeEverywhere(ctx, event.payload.statusId) }),
  // An edit (domain/statuses/edit.ts): `status.update` to every stream that may show it
  on({
    name: "streaming.status_update",
    on: "status.updated",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: event.payload.statusId }),
  }),
  on({
    name: "notifications.status_update",
    on: "status.updated",
    lane: "default",
    run: (ctx, event) => notifyRebloggersOfEdit(ctx, event.payload.statusId, event.at),
  }),
  // Quotes (domain/quotes): quoters hear of edits; a revoked quote or a new policy renders anew in the streams
  on({
    name: "notifications.quoted_update",
    on: "status.updated",
    lane: "default",
    run: (ctx, event) => notifyQuotersOfEdit(ctx, event.payload.statusId, event.at),
  }),
  on({
    name: "streaming.quote_revoked",
    on: "quote.revoked",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: event.payload.statusId }),
  }),
  on({
    name: "streaming.quote_settled",
    on: "quote.settled",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: event.payload.statusId }),
  }),
  // Quotes across servers (src/federation/quotes.ts): a local quote of a remote status asks its author's server;
  // a revoked quote by a remote status has its QuoteAuthorization deleted there.
  on({
    name: "federation.quote_request",
    on: "status.created",
    delayMs: onlyIfStatusHas("pendingQuote"),
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/quotes.ts")).sendQuoteRequest(ctx, event.payload),
  }),
  on({
    name: "federation.quote_revoked",
    on: "quote.revoked",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/quotes.ts")).sendAuthorizationDelete(ctx, event.payload),
  }),
  on({
    name: "federation.quote_accepted",
    on: "quote.settled",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/quotes.ts")).sendQuoteUpdate(ctx, event.payload),
  }),
  on({
    name: "streaming.quote_policy_changed",
    on: "status.quote_policy_changed",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: event.payload.statusId }),
  }),
  on({ name: "quotes.removal", on: "status.deleted", lane: "default", run: (ctx, event) => forgetQuotesOf(ctx.store, event.payload.statusId) }),
  on({
    name: "timelines.backfill_follow",
    on: "follow.created",
    lane: "backfill",
    run: (ctx, event) => backfillHome(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({
    name: "timelines.backfill_accepted_follow",
    on: "follow.accepted",
    lane: "backfill",
    run: (ctx, event) => backfillHome(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({
    name: "timelines.forget_follow",
    on: "follow.removed",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => forgetFollow(ctx.store, event.payload.followerId, event.payload.targetId),
  }),
  on({
    name: "timelines.backfill_list_member",
    on: "list.member_added",
    lane: "backfill",
    run: (ctx, event) => backfillList(ctx.store, event.payload.ownerId, event.payload.listId, event.payload.accountId),
  }),
  on({
    name: "timelines.remove_list_feed",
    on: "list.deleted",
    lane: "backfill",
    run: (ctx, event) => removeListFeed(ctx.store, event.payload.listId),
  }),
  on({
    name: "streaming.notification",
    on: "notification.created",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "notification", ...event.payload }),
  }),

  // Statuses and relationships: the deferred halves of actions the spec makes asynchronous
  on({
    name: "favourites.removal",
    on: "favourite.removed",
    lane: "default",
    run: (ctx, event) => completeFavouriteRemoval(ctx.store, { id: event.payload.favouriteId, accountId: event.payload.accountId, statusId: event.payload.statusId }),
  }),
  on({
    name: "relationships.block_cleanup",
    on: "block.created",
    lane: "default",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => cleanUpAfterBlock(ctx.store, event.payload),
  }),
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

  // Media: processing in its own lane (minutes of ffmpeg must not hold up anything else), clean-up a day on
  on({
    name: "media.process",
    on: "media.uploaded",
    lane: "media",
    // A backstop: the transcode is killed past its budget (at most the configured cap), the probes and the
    // preview frame past theirs, and the job then ends with the upload marked failed.
    timeoutMs: MAX_TRANSCODE_SECONDS * 1000 + 4 * MEDIA_LIMITS.probeTimeoutMs,
    // One upload per account at a time, the accounts taking turns (jobs/fair.ts).
    group: (event) => event.payload.accountId,
    delayMs: (event) => (event.payload.processing ? 0 : null),
    run: (ctx, event) => processQueuedMedia(ctx.store, ctx.config, event.payload.mediaId),
  }),
  expireMedia("media.expire_unattached", "media.uploaded"),
  expireMedia("media.expire_detached", "media.detached"),

  // Reports (domain/reports): an admin.report notification to every moderator
  on({
    name: "reports.notify_staff",
    on: "report.created",
    lane: "default",
    run: (ctx, event) => notifyStaffOfReport(ctx, event.payload.reportId),
  }),

  // Sign-ups waiting for approval (domain/auth): an admin.sign_up notification to every user manager, once confirmed
  on({
    name: "accounts.notify_staff_sign_up",
    on: "account.created",
    lane: "default",
    run: (ctx, event) => notifyStaffOfSignUp(ctx, event.payload.accountId),
  }),
  on({
    name: "accounts.notify_staff_confirmed_sign_up",
    on: "user.confirmed",
    lane: "default",
    run: (ctx, event) => notifyStaffOfSignUp(ctx, event.payload.accountId),
  }),

  // Announcements (domain/announcements): every user's stream hears of them
  on({
    name: "streaming.announcement",
    on: "announcement.published",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement", announcementId: event.payload.announcementId }),
  }),
  on({
    name: "streaming.announcement_delete",
    on: "announcement.deleted",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement.delete", announcementId: event.payload.announcementId }),
  }),
  on({
    name: "streaming.announcement_reaction",
    on: "announcement.reacted",
    lane: "realtime",
    run: (ctx, event) => ctx.emit({ topic: STREAM_TOPIC, kind: "announcement.reaction", ...event.payload }),
  }),

  // Notification requests (domain/notifications/requests.ts): accepted ones merge, dismissed ones go
  on({
    name: "notifications.merge_request",
    on: "notification_request.accepted",
    lane: "default",
    run: (ctx, event) => mergeAcceptedRequest(ctx, event.payload),
  }),
  on({
    name: "notifications.drop_request",
    on: "notification_request.dismissed",
    lane: "default",
    run: (ctx, event) => dropDismissedRequest(ctx, event.payload, event.at),
  }),

  // A `status` notification to the followers who asked for one (follow option notify=true)
  on({
    name: "notifications.subscribed_status",
    on: "status.created",
    delayMs: onlyIfStatusHas("notifyingFollowers"),
    lane: "default",
    run: (ctx, event) => notifySubscribers(ctx, event.payload.statusId),
  }),

  // Conversations (domain/conversations; docs/conversations.md): direct threads per participant, the direct stream
  on({
    name: "conversations.add_status",
    on: "status.created",
    delayMs: onlyIfStatusHas("direct"),
    lane: "realtime",
    run: (ctx, event) => addToConversations(ctx.store, ctx.emit, event.payload.statusId),
  }),
  on({
    name: "conversations.remove_status",
    on: "status.deleted",
    lane: "default",
    run: (ctx, event) => removeFromConversations(ctx.store, event.payload.statusId),
  }),

  on({
    name: "tags.count_use",
    on: "status.created",
    delayMs: onlyIfStatusHas("tags"),
    lane: "default",
    run: (ctx, event) => countTagsOf(ctx.store, event.payload.statusId),
  }),

  // Featured hashtags (domain/tags/featured.ts; docs/tags.md): each keeps its owner's count of statuses using it
  on({
    name: "featured_tags.count",
    on: "status.created",
    delayMs: onlyIfStatusHas("tags"),
    lane: "default",
    run: (ctx, event) => countFeaturedUses(ctx.store, event.payload.statusId),
  }),
  on({
    name: "featured_tags.uncount",
    on: "status.deleted",
    lane: "default",
    run: (ctx, event) => uncountFeaturedUses(ctx.store, event.payload.statusId),
  }),

  // Search index (domain/search/indexing.ts; docs/search.md): a batch's documents in one engine write
  on({
    name: "search.index_status",
    on: "status.created",
    lane: "index",
    run: (ctx, event) => indexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => indexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  on({
    name: "search.reindex_status",
    on: "status.updated",
    lane: "default",
    run: (ctx, event) => indexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => indexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  on({
    name: "search.remove_status",
    on: "status.deleted",
    lane: "default",
    run: (ctx, event) => unindexStatuses(ctx, [event.payload.statusId]),
    runBatch: (ctx, events) => unindexStatuses(ctx, events.map((event) => event.payload.statusId)),
  }),
  indexAccount("search.index_new_account", "account.created"),
  indexAccount("search.index_account", "account.updated"),

  // Annual reports (domain/annual-reports; docs/annual-reports.md): a year of an account's activity, read in batches
  on({
    name: "annual_reports.generate",
    on: "annual_report.requested",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => generateAnnualReport(ctx, event.payload),
  }),

  // Moderation (domain/admin; docs/admin.md): a suspended account's data goes after the retention, unless
  // the suspension was lifted meanwhile; DELETE /api/v1/admin/accounts/:id has it go at once
  on({
    name: "accounts.suspension_removal",
    on: "account.suspended",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    delayMs: (event) => event.payload.removeAt - event.at,
    run: (ctx, event) => removeAccountData(ctx, event.payload.accountId, event.payload.suspendedAt),
  }),
  on({
    name: "moderation.apply_domain_block",
    on: "instance_domain_block.changed",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => applyDomainBlockToAccounts(ctx, event.payload.domain),
  }),
  on({
    name: "accounts.data_deletion",
    on: "account.data_deletion",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => removeAccountData(ctx, event.payload.accountId, null),
  }),
  // /settings/import (domain/accounts/import.ts): the rows of an uploaded file, in batches
  on({
    name: "accounts.import",
    on: "account.import_requested",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => runImport(ctx, event),
  }),

  // Network work: never in the way of the above
  on({
    name: "cards.fetch",
    on: "status.created",
    lane: "network",
    delayMs: (event) => (event.payload.firstLink ? 0 : null),
    run: (ctx, event) => fetchStatusCard(ctx.store, ctx.config, { statusId: event.payload.statusId, url: event.payload.firstLink! }),
  }),
  on({
    name: "cards.fetch_edited",
    on: "status.updated",
    lane: "network",
    delayMs: (event) => (event.payload.firstLink ? 0 : null),
    run: (ctx, event) => fetchStatusCard(ctx.store, ctx.config, { statusId: event.payload.statusId, url: event.payload.firstLink! }),
  }),
  on({
    name: "mail.follow_request",
    on: "follow.requested",
    lane: "network",
    run: (ctx, event) => mailFollowRequest(ctx.store, ctx.config, event.payload),
  }),
  on({
    name: "mail.account_warning",
    on: "account.warned",
    lane: "network",
    run: (ctx, event) => mailAccountWarning(ctx.store, ctx.config, event.payload),
  }),
  on({
    name: "mail.confirmation",
    on: "user.confirmation_requested",
    lane: "network",
    run: (ctx, event) => mailConfirmation(ctx, event),
  }),
  on({
    name: "mail.password_reset",
    on: "user.password_reset_requested",
    lane: "network",
    run: (ctx, event) => mailPasswordReset(ctx, event),
  }),
  on({
    name: "mail.email_change",
    on: "user.email_change_requested",
    lane: "network",
    run: (ctx, event) => mailEmailChange(ctx, event),
  }),
  // Federation (src/federation/follows.ts; docs/federation.md): activities for what local accounts did,
  // sent through Fedify on its queue; loaded on first use so processes that never federate skip Fedify
  on({
    name: "federation.send_follow",
    on: "follow.requested",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/follows.ts")).sendFollow(ctx, event.payload),
  }),
  on({
    name: "federation.send_accept",
    on: "follow.accepted",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/follows.ts")).sendAcceptOf(ctx, event.payload),
  }),
  on({
    name: "federation.send_reject",
    on: "follow.rejected",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/follows.ts")).sendRejectOf(ctx, event.payload),
  }),
  on({
    name: "federation.send_unfollow",
    on: "follow.removed",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/follows.ts")).sendUnfollow(ctx, event.payload, event.at),
  }),
  on({
    name: "federation.send_block",
    on: "block.created",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/blocks.ts")).sendBlock(ctx, event.payload),
  }),
  on({
    name: "federation.send_unblock",
    on: "block.removed",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/blocks.ts")).sendUnblock(ctx, event.payload, event.at),
  }),
  on({
    name: "federation.send_profile_update",
    on: "account.updated",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/profiles.ts")).sendProfileUpdate(ctx, event.payload, event.at),
  }),
  // Statuses and interactions out (src/federation/status-delivery.ts): Create, Update, Delete, Announce, Like, Undo
  on({
    name: "federation.send_create",
    on: "status.created",
    delayMs: onlyIfStatusHas("remoteAudience"),
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendCreate(ctx, event.payload),
  }),
  on({
    name: "federation.send_status_update",
    on: "status.updated",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendUpdate(ctx, event.payload),
  }),
  on({
    name: "federation.send_delete",
    on: "status.deleted",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendDelete(ctx, event.payload),
  }),
  on({
    name: "federation.send_announce",
    on: "reblog.created",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendAnnounce(ctx, event.payload),
  }),
  on({
    name: "federation.send_undo_announce",
    on: "reblog.removed",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendUndoAnnounce(ctx, event.payload),
  }),
  on({
    name: "federation.send_like",
    on: "favourite.created",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendLike(ctx, event.payload),
  }),
  on({
    name: "federation.send_undo_like",
    on: "favourite.removed",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/status-delivery.ts")).sendUndoLike(ctx, event.payload),
  }),
  // Issue 26 (inbound federation): a local vote on another server's poll goes to its author
  on({
    name: "federation.send_poll_vote",
    on: "poll.voted",
    lane: "network",
    localOnly: true,
    run: async (ctx, event) => (await import("../federation/poll-votes-out.ts")).sendPollVote(ctx, event.payload),
  }),
  // Web Push (domain/push/deliver.ts; docs/push.md): to the recipient's push services, never for remote events
  on({
    name: "push.deliver",
    on: "notification.created",
    lane: "network",
    localOnly: true,
    run: (ctx, event) => deliverPush(ctx, event.payload),
  }),
];
