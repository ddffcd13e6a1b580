// Jobs that no event announces: timers an action enqueues for later (an Idempotency-Key's expiry, a poll's
// end, a scheduled status, the trends refresh chain), the stream signal of a filter change, and Fedify's
// queued messages (federation/queue.ts). Names are in domain/job-names.ts.
import type { Deps } from "../deps.ts";
import type { JobContext, JobHandler } from "../jobs/registry.ts";
import type { Lane } from "../jobs/lanes.ts";
import {
  FEDERATION_MESSAGE_JOB, FILTERS_CHANGED_JOB, IDEMPOTENCY_EXPIRY, NOOP_JOB, POLL_EXPIRY, POLL_RESULTS, REMOTE_CACHE_EXPIRY, SCHEDULED_PUBLISH,
  TRENDS_REFRESH,
} from "../domain/job-names.ts";
import type { IdempotencyExpiry } from "../domain/statuses/create.ts";
import type { PollExpiry } from "../domain/polls/poll.ts";
import { expirePoll } from "../domain/polls/expire.ts";
import type { PollResults } from "../domain/polls/results.ts";
import { sendPollResults } from "../federation/senders.ts";
import type { ScheduledPublish } from "../domain/statuses/scheduled.ts";
import { publishScheduled } from "../domain/statuses/scheduled-publish.ts";
import { refreshTrends, type TrendsRefresh } from "../domain/trends/refresh.ts";
import { STREAM_TOPIC } from "../domain/streaming/signals.ts";
import { runFederationMessage } from "../federation/jobs.ts";
import { remoteFetchHandlers } from "../federation/remote-job-handlers.ts";
import { expireRemoteCache } from "../domain/media/remote-cache-expiry.ts";
import { federationRemote } from "../federation/remote.ts";
import { expireIdempotency } from "../store/statuses.ts";

/** A job's context as the domain's Deps: what the job thread has, and other servers through federation. */
export const withRemote = <C extends Omit<JobContext, "job">>(ctx: C): C & Pick<Deps, "remote"> => ({ ...ctx, remote: federationRemote });

export const TIMER_HANDLERS: Record<string, JobHandler> = {
  /** Used by benchmarks of the queue itself. */
  [NOOP_JOB]: () => {},
  [IDEMPOTENCY_EXPIRY]: async (ctx, payload: IdempotencyExpiry) => {
    await ctx.store.write(() => expireIdempotency(ctx.store, payload.accountId, payload.key, payload.statusId));
  },
  [POLL_EXPIRY]: (ctx, payload: PollExpiry) => expirePoll(ctx, payload),
  // A local poll's counts, as an Update of its Question (domain/polls/results.ts).
  [POLL_RESULTS]: (ctx, payload: PollResults) => sendPollResults(withRemote({ ...ctx, emit: () => {} }), payload),
  [SCHEDULED_PUBLISH]: (ctx, payload: ScheduledPublish) => publishScheduled(withRemote(ctx), payload),
  [TRENDS_REFRESH]: (ctx, payload: TrendsRefresh) => refreshTrends(ctx, payload),
  // For the streaming hub on the main thread; running twice is harmless. Enqueued by every filter write
  // (domain/filters/manage.ts), in the write's transaction.
  [FILTERS_CHANGED_JOB]: (ctx, payload: { accountId: string }) => ctx.emit({ topic: STREAM_TOPIC, kind: "filters_changed", accountId: payload.accountId }),
  [FEDERATION_MESSAGE_JOB]: runFederationMessage,
  // Once a day while WARREN_MEDIA_CACHE_DAYS > 0 (domain/media/remote-cache-expiry.ts; docs/media.md).
  [REMOTE_CACHE_EXPIRY]: (ctx, payload: { runAt: number }) => expireRemoteCache(ctx, payload),
  // Background fetches from other servers, in the `remote` lane by host (federation/remote-jobs.ts).
  ...Object.fromEntries(Object.entries(remoteFetchHandlers).map(([type, run]) => [type, ((ctx, payload) => run(withRemote(ctx), payload)) as JobHandler])),
};

export const TIMER_LANES: Record<string, Lane> = {
  // What someone is waiting to see: stream signals.
  [FILTERS_CHANGED_JOB]: "realtime",
  // Work that waits on other servers.
  [FEDERATION_MESSAGE_JOB]: "network",
  [POLL_RESULTS]: "network",
};
