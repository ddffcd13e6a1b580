// Job type → handler. The same registry runs on the main thread (WARREN_JOB_WORKERS=0) and in every
// worker thread, so handlers must not rely on main-thread state: everything they need is in the context.
// Handlers are idempotent: after a crash a job may run twice. See docs/jobs.md.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import type { JobEnqueuer, JobEvent } from "../queue.ts";
import { followRequestCreated } from "./follow-request-created.ts";
import { blockCreated } from "./block-created.ts";
import { muteExpired } from "./mute-expired.ts";
import { statusRemoved } from "./status-removed.ts";
import { favouriteRemoved } from "./favourite-removed.ts";
import { cardFetch } from "./card-fetch.ts";
import { statusIdempotencyExpired } from "./status-idempotency-expired.ts";
import { statusCreated } from "./status-created.ts";
import { timelineFollowCreated, timelineFollowRemoved } from "./timeline-follows.ts";
import { timelineListDeleted, timelineListMemberAdded } from "./timeline-lists.ts";
import { filtersChanged, notificationCreated, statusUpdated } from "./stream-signals.ts";

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

/** What a handler module exports: this file, and any module named in WARREN_JOB_HANDLERS_EXTRA. */
export interface JobHandlerModule {
  handlers: Record<string, JobHandler>;
  /** Per-type time limits in ms; a job running longer counts as failed (default 60 s). */
  timeoutsMs?: Record<string, number>;
}

export const handlers: Record<string, JobHandler> = {
  /** Does nothing; used by benchmarks of the queue itself. */
  noop: () => {},
  "follow_request.created": followRequestCreated,
  "block.created": blockCreated,
  "mute.expired": muteExpired,
  "status.removed": statusRemoved,
  "favourite.removed": favouriteRemoved,
  "card.fetch": cardFetch,
  "status.idempotency_expired": statusIdempotencyExpired,
  // Timelines and streaming (domain/timelines/jobs.ts)
  "status.created": statusCreated,
  "status.updated": statusUpdated,
  "timeline.follow_created": timelineFollowCreated,
  "timeline.follow_removed": timelineFollowRemoved,
  "timeline.list_member_added": timelineListMemberAdded,
  "timeline.list_deleted": timelineListDeleted,
  "notification.created": notificationCreated,
  "filters.changed": filtersChanged,
};

export const timeoutsMs: Record<string, number> = {
  // Fan-out to a very large audience, and feed clean-up after an unfollow of a prolific account, take time.
  "status.created": 600_000,
  "timeline.follow_removed": 600_000,
};
