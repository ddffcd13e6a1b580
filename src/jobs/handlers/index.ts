// Job type → handler. The same registry runs on the main thread (WARREN_JOB_WORKERS=0) and in every
// worker thread, so handlers must not rely on main-thread state: everything they need is in the context.
// Handlers are idempotent: after a crash a job may run twice. See docs/jobs.md.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import type { Lane } from "../lanes.ts";
import type { JobEnqueuer, JobEvent } from "../queue.ts";
import { registerSubscribers, type Subscriber, type SubscriberJob } from "../../domain/events.ts";
import { SUBSCRIBERS } from "../../domain/subscribers.ts";
import { IDEMPOTENCY_EXPIRY } from "../../domain/statuses/create.ts";
import { POLL_EXPIRY, type PollExpiry } from "../../domain/polls/poll.ts";
import { expirePoll } from "../../domain/polls/expire.ts";
import { SCHEDULED_PUBLISH, type ScheduledPublish } from "../../domain/statuses/scheduled.ts";
import { publishScheduled } from "../../domain/statuses/scheduled-publish.ts";
import { statusIdempotencyExpired } from "./status-idempotency-expired.ts";
import { refreshTrends, TRENDS_REFRESH, type TrendsRefresh } from "../../domain/trends/refresh.ts";
import { filtersChanged } from "./stream-signals.ts";
import { FEDERATION_MESSAGE_JOB } from "../../federation/queue.ts";
import { remoteFetchHandlers } from "../../federation/remote-jobs.ts";
import { expireRemoteCache, REMOTE_CACHE_EXPIRY } from "../../domain/media/remote-cache-expiry.ts";
import { runFederationMessage } from "../../federation/jobs.ts";

export interface JobContext {
  store: Store;
  config: Config;
  /** Follow-up jobs, inside a `store.write` like everywhere else. */
  jobs: JobEnqueuer;
  /** Raises an event for listeners on the main thread (`jobs.onEvent`), e.g. for streaming. */
  emit(event: JobEvent): void;
  /** The job being run; `attempt` is 1 on the first try. */
  job: { id: string; type: string; attempt: number };
}

export type JobHandler = (ctx: JobContext, payload: any) => void | Promise<void>;
/** Runs several jobs of one type as one (see docs/jobs.md, batches): the context of no job in particular. */
export type BatchJobHandler = (ctx: Omit<JobContext, "job">, payloads: any[]) => void | Promise<void>;

/** What a handler module exports: this file, and any module named in WARREN_JOB_HANDLERS_EXTRA. */
export interface JobHandlerModule {
  handlers: Record<string, JobHandler>;
  /** Types whose jobs in one batch run together through one call; each still needs its `handlers` entry. */
  batchHandlers?: Record<string, BatchJobHandler>;
  /** Per-type time limits in ms; a job running longer counts as failed (default 60 s). */
  timeoutsMs?: Record<string, number>;
  /** Per-type lanes (src/jobs/lanes.ts); a type not listed runs in `default`. An enqueue may name another. */
  lanes?: Record<string, Lane>;
  /** Event subscribers (domain/events.ts): each becomes a job type of its own, with its lane and time limit. */
  subscribers?: readonly Subscriber<any>[];
}

// Every process that can record an event (server, workers, CLI, benchmarks) builds a job queue, which loads
// this module: so every one of them knows who subscribes to what (subscriberJobs registers them).

/** Registers subscribers and gives their job types: handler, time limit and lane each. */
export function subscriberJobs(subscribers: readonly Subscriber<any>[]): Required<Omit<JobHandlerModule, "subscribers">> {
  registerSubscribers(subscribers);
  const by = <T>(pick: (s: Subscriber<any>) => T | undefined): Record<string, T> =>
    Object.fromEntries(subscribers.flatMap((s) => (pick(s) === undefined ? [] : [[s.name, pick(s)!]])));
  return {
    handlers: by((s): JobHandler => (ctx, payload: SubscriberJob) => s.run(ctx, payload.event)),
    batchHandlers: by((s): BatchJobHandler | undefined => {
      const runBatch = s.runBatch;
      return runBatch && ((ctx, payloads: SubscriberJob[]) => runBatch(ctx, payloads.map((payload) => payload.event)));
    }),
    timeoutsMs: by((s) => s.timeoutMs),
    lanes: by((s) => s.lane),
  };
}

const builtInSubscriberJobs = subscriberJobs(SUBSCRIBERS);

export const handlers: Record<string, JobHandler> = {
  /** Does nothing; used by benchmarks of the queue itself. */
  noop: () => {},
  // Timers, not events.
  [IDEMPOTENCY_EXPIRY]: statusIdempotencyExpired,
  [POLL_EXPIRY]: (ctx, payload: PollExpiry) => expirePoll(ctx, payload),
  [SCHEDULED_PUBLISH]: (ctx, payload: ScheduledPublish) => publishScheduled(ctx, payload),
  // Every 10 minutes, a chain started at start-up (domain/trends/refresh.ts; docs/trends.md).
  [TRENDS_REFRESH]: (ctx, payload: TrendsRefresh) => refreshTrends(ctx, payload),
  // Once a day while WARREN_MEDIA_CACHE_DAYS > 0 (domain/media/remote-cache-expiry.ts; docs/media.md).
  [REMOTE_CACHE_EXPIRY]: (ctx, payload: { runAt: number }) => expireRemoteCache(ctx, payload),
  // Stream signals: filter changes (domain/filters/manage.ts); edits have their subscriber (status.updated).
  "filters.changed": filtersChanged,
  // Fedify's queued messages (deliveries, incoming activities, fan-outs): src/federation/queue.ts.
  [FEDERATION_MESSAGE_JOB]: runFederationMessage,
  // Background fetches from other servers, in the `remote` lane by host (federation/remote-jobs.ts).
  ...remoteFetchHandlers,
  // One job type per event subscriber (domain/subscribers.ts).
  ...builtInSubscriberJobs.handlers,
};

export const batchHandlers: Record<string, BatchJobHandler> = builtInSubscriberJobs.batchHandlers;

export const timeoutsMs: Record<string, number> = builtInSubscriberJobs.timeoutsMs;

export const lanes: Record<string, Lane> = {
  // What someone is waiting to see: stream signals.
  "filters.changed": "realtime",
  // Work that waits on other servers.
  [FEDERATION_MESSAGE_JOB]: "network",
  // Subscribers declare theirs: realtime (fan-out, notifications), network (cards, mail), backfill (feeds).
  ...builtInSubscriberJobs.lanes,
};
