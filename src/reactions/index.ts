// src/reactions: what follows each event (src/domain/events.ts), one file per event family, each a table of
// subscribers to read top to bottom; the models are GoToSocial's processing/workers and Mastodon's
// postprocess_status!. To follow `postStatus`: domain/statuses/create.ts records `status.created`, and
// statuses.ts lists every job that event starts (fan-out, conversations, notifications, tags, search, card,
// federation.send_create), each run, failed and retried on its own (docs/events.md).
//
//   statuses.ts       status.created / updated / deleted      quotes.ts         quote.*, quote policy
//   interactions.ts   reblog.*, favourite.*                    relationships.ts  follow.*, block.*, mute, lists
//   accounts.ts       account.*, user.* (sign-up, mail)        moderation.ts     reports, suspensions, warnings
//   media.ts          media.*                                  notifications.ts  notification.*, announcements
//   timers.ts         jobs no event announces (timers, signals, Fedify's messages)
//
// May import domain, federation, search and store; nothing below imports this folder. The composition root
// (src/compose.ts) turns these tables into the job queue's handler table (jobTable below), on the main thread
// and in every worker thread alike. Job names: domain/job-names.ts.
import { registerSubscribers, type Subscriber, type SubscriberJob } from "../domain/events.ts";
import type { BatchJobHandler, JobHandler, JobHandlerModule } from "../jobs/registry.ts";
import { ACCOUNT_REACTIONS } from "./accounts.ts";
import { INTERACTION_REACTIONS } from "./interactions.ts";
import { MEDIA_REACTIONS } from "./media.ts";
import { MODERATION_REACTIONS } from "./moderation.ts";
import { NOTIFICATION_REACTIONS } from "./notifications.ts";
import { QUOTE_REACTIONS } from "./quotes.ts";
import { RELATIONSHIP_REACTIONS } from "./relationships.ts";
import { STATUS_REACTIONS } from "./statuses.ts";
import { TIMER_HANDLERS, TIMER_LANES, withRemote } from "./timers.ts";

export const REACTIONS: readonly Subscriber<any>[] = [
  ...STATUS_REACTIONS,
  ...QUOTE_REACTIONS,
  ...INTERACTION_REACTIONS,
  ...RELATIONSHIP_REACTIONS,
  ...ACCOUNT_REACTIONS,
  ...MODERATION_REACTIONS,
  ...MEDIA_REACTIONS,
  ...NOTIFICATION_REACTIONS,
];

/**
 * Registers subscribers (so that recording their event enqueues their jobs, in this process) and gives their
 * job types: handler, batch handler, time limit and lane each.
 */
export function subscriberJobs(subscribers: readonly Subscriber<any>[]): Required<JobHandlerModule> {
  registerSubscribers(subscribers);
  const by = <T>(pick: (s: Subscriber<any>) => T | undefined): Record<string, T> =>
    Object.fromEntries(subscribers.flatMap((s) => (pick(s) === undefined ? [] : [[s.name, pick(s)!]])));
  return {
    handlers: by((s): JobHandler => (ctx, payload: SubscriberJob) => s.run(withRemote(ctx), payload.event)),
    batchHandlers: by((s): BatchJobHandler | undefined => {
      const runBatch = s.runBatch;
      return runBatch && ((ctx, payloads: SubscriberJob[]) => runBatch(withRemote(ctx), payloads.map((payload) => payload.event)));
    }),
    timeoutsMs: by((s) => s.timeoutMs),
    lanes: by((s) => s.lane),
  };
}

/** The built-in job types: the timers, and one job type per subscriber of the tables above. */
export function reactionJobs(): JobHandlerModule {
  const subscribers = subscriberJobs(REACTIONS);
  return {
    handlers: { ...TIMER_HANDLERS, ...subscribers.handlers },
    batchHandlers: subscribers.batchHandlers,
    timeoutsMs: subscribers.timeoutsMs,
    lanes: { ...TIMER_LANES, ...subscribers.lanes },
  };
}

/** A WARREN_JOB_HANDLERS_EXTRA module (docs/jobs.md): `subscribers` of events, `handlers` of job types, or both. */
export function extraJobs(module: unknown): JobHandlerModule[] {
  const { subscribers, ...handlers } = module as Partial<JobHandlerModule> & { subscribers?: readonly Subscriber<any>[] };
  if (!subscribers) return [handlers as JobHandlerModule];
  return handlers.handlers ? [subscriberJobs(subscribers), handlers as JobHandlerModule] : [subscriberJobs(subscribers)];
}
