// What every reactions table is written with: `on` for one row, and the few shapes several rows share.
import type { DomainEvent, EventType, StatusCreatedFacts, Subscriber } from "../domain/events.ts";
import type { SubscriberJobName } from "../domain/job-names.ts";
import { STREAM_TOPIC } from "../domain/streaming/signals.ts";

/** One row: a subscriber whose name is a known job type (domain/job-names.ts), its `run` tied to its event's payload. */
export const on = <T extends EventType>(subscriber: Subscriber<T> & { name: SubscriberJobName }): Subscriber<T> => subscriber;

/** Fan-out of big audiences and feed clean-up after unfollowing a prolific account take time. */
export const LONG_RUNNING_MS = 600_000;

/**
 * For subscribers of `status.created` with nothing to do unless the new status has `fact` (events recorded
 * before the facts existed give every subscriber its job).
 */
export const onlyIfStatusHas = (fact: keyof StatusCreatedFacts) => (event: DomainEvent<"status.created">) => (event.payload.has?.[fact] === false ? null : 0);

/** A status renders anew (`status.update`) in every stream that may show it. */
export const streamStatusUpdate = <T extends "status.updated" | "quote.revoked" | "quote.settled" | "status.quote_policy_changed">(
  name: SubscriberJobName,
  event: T,
): Subscriber<T> =>
  on<T>({ name, on: event, lane: "realtime", run: (ctx, recorded) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: recorded.payload.statusId }) });
