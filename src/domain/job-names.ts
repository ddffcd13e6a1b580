// Every built-in job type, in one place. Timers and signals are enqueued by name (the constants below); every
// event subscriber's job type is its name, listed in SUBSCRIBER_JOBS so that a reactions table (src/reactions)
// cannot name one that is not here. Job names are stored with their jobs: renaming one strands the jobs already
// queued under the old name (src/store/legacy-jobs.ts carries older ones over).

/** Forgets an Idempotency-Key an hour after its status was posted (domain/statuses/create.ts). */
export const IDEMPOTENCY_EXPIRY = "status.idempotency_expired";
/** Closes a poll at its expiry (domain/polls). */
export const POLL_EXPIRY = "polls.expire";
/** Sends a local poll's counts as an Update of its Question, a few minutes after votes and at its end (domain/polls/results.ts). */
export const POLL_RESULTS = "polls.send_results";
/** Publishes a scheduled status at its time (domain/statuses/scheduled.ts). */
export const SCHEDULED_PUBLISH = "scheduled_statuses.publish";
/** Every 10 minutes, a chain started at start-up (domain/trends/refresh.ts). */
export const TRENDS_REFRESH = "trends.refresh";
/** Once a day while WARREN_MEDIA_CACHE_DAYS > 0: removes old copies of remote media (domain/media/remote-cache-expiry.ts). */
export const REMOTE_CACHE_EXPIRY = "media.remote_cache_expiry";
/** Background fetches from other servers, in the `remote` lane grouped by host (federation/remote-jobs.ts). */
export const REMOTE_ACCOUNT_COMPLETE = "remote.account_complete";
export const REMOTE_ACCOUNT_REFRESH = "remote.account_refresh";
export const REMOTE_THREAD_FETCH = "remote.thread_fetch";
export const REMOTE_REPLIES_FETCH = "remote.replies_fetch";
export const REMOTE_STATUS_FETCH = "remote.status_fetch";
export const REMOTE_MEDIA_FETCH = "remote.media_fetch";
export const REMOTE_PROFILE_IMAGE_FETCH = "remote.profile_image_fetch";
export const REMOTE_EMOJI_FETCH = "remote.emoji_fetch";
/** The stream signal of a filter change (domain/filters/manage.ts). */
export const FILTERS_CHANGED_JOB = "filters.changed";
/** Fedify's queued messages: deliveries, incoming activities, fan-outs (src/federation/queue.ts). */
export const FEDERATION_MESSAGE_JOB = "federation.message";
/** Does nothing; used by benchmarks of the queue itself. */
export const NOOP_JOB = "noop";

/** The job types of the event subscribers (src/reactions/*), grouped as their tables are. */
export const SUBSCRIBER_JOBS = [
  // statuses.ts
  "timelines.fan_out", "statuses.removal", "streaming.status_update", "notifications.status_update", "notifications.quoted_update",
  "federation.quote_request", "quotes.removal", "notifications.subscribed_status", "conversations.add_status",
  "conversations.remove_status", "tags.count_use", "featured_tags.count", "featured_tags.uncount", "search.index_status",
  "search.reindex_status", "search.remove_status", "cards.fetch", "cards.fetch_edited", "federation.send_create",
  "federation.send_status_update", "federation.send_delete",
  // quotes.ts
  "streaming.quote_revoked", "streaming.quote_settled", "federation.quote_revoked", "federation.quote_accepted",
  "streaming.quote_policy_changed",
  // interactions.ts
  "timelines.fan_out_reblog", "statuses.reblog_removal", "favourites.removal", "federation.send_announce",
  "federation.send_undo_announce", "federation.send_like", "federation.send_undo_like", "federation.send_poll_vote",
  // relationships.ts
  "timelines.backfill_follow", "timelines.backfill_accepted_follow", "timelines.forget_follow", "timelines.backfill_list_member",
  "timelines.remove_list_feed", "relationships.block_cleanup", "relationships.domain_block_cleanup", "relationships.mute_expiry",
  "mail.follow_request", "federation.send_follow", "federation.send_accept", "federation.send_reject", "federation.send_unfollow",
  "federation.send_block", "federation.send_unblock",
  // accounts.ts
  "accounts.notify_staff_sign_up", "accounts.notify_staff_confirmed_sign_up", "search.index_new_account", "search.index_account",
  "federation.send_profile_update", "mail.confirmation", "mail.password_reset", "mail.email_change", "accounts.import",
  "annual_reports.generate", "accounts.move_followers", "federation.send_move",
  // moderation.ts
  "reports.notify_staff", "federation.send_flag", "accounts.suspension_removal", "moderation.apply_domain_block", "accounts.data_deletion",
  "mail.account_warning", "federation.send_actor_delete", "federation.send_actor_delete_after_retention",
  "relationships.end_follows_of_suspended",
  // media.ts
  "media.process", "media.expire_unattached", "media.expire_detached",
  // notifications.ts
  "streaming.notification", "push.deliver", "notifications.merge_request", "notifications.drop_request",
  "streaming.announcement", "streaming.announcement_delete", "streaming.announcement_reaction",
] as const;

export type SubscriberJobName = (typeof SUBSCRIBER_JOBS)[number];
