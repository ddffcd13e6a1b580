// Domain events: what happened, recorded by the action that made it happen, inside its own write. Every
// event has a type, a payload of ids (never whole records: subscribers read the store as it is when they
// run) and an origin: `local` for what this server's users did, `remote` for what arrived from another
// server, which is never delivered back out.
//
// Recording an event enqueues one job per subscriber (src/reactions), in the same transaction as
// the change, so each subscriber runs, fails and is retried on its own, and none is lost or run for a change
// that did not commit. GoToSocial's "one message per user action, fanned out to surface and federate",
// kept inside our transactions.
import type { Deps } from "../deps.ts";
import type { EnqueueOptions, JobEnqueuer } from "../jobs/queue.ts";
import type { EmitSignal } from "./streaming/signals.ts";
import type { Visibility } from "../model/statuses.ts";

/** About a new status, for the subscribers of `status.created` that have nothing to do without it. */
export interface StatusCreatedFacts {
  tags: boolean;
  direct: boolean;
  /** It quotes a status and waits for that status's approval. */
  pendingQuote: boolean;
  /** Its author has followers asking to be notified of new statuses. */
  notifyingFollowers: boolean;
  /** A local status someone on another server is to receive: a remote follower of its author, or a remote
   * account it mentions, replies to or quotes. */
  remoteAudience: boolean;
}

/** Every event type, with its payload. */
export interface EventPayloads {
  /**
   * A local or remote status (not a reblog) was stored. `firstLink`: the link its card comes from. `has`: what
   * some of its subscribers look for, known when it was stored, so that they are given no job for nothing
   * (absent on events recorded before it existed: then every subscriber is given one).
   */
  "status.created": { statusId: string; accountId: string; firstLink: string | null; has?: StatusCreatedFacts };
  /** Its author edited a status (domain/statuses/edit.ts): the record holds the new version. `firstLink`: a
   * link whose card is to be fetched (the first link changed). */
  "status.updated": { statusId: string; accountId: string; firstLink?: string | null };
  /** A status was deleted; the rest of its removal is a subscriber's work. `audience`: who it was addressed
   * to, for the Delete sent to other servers once the record may be gone (absent on older events). */
  "status.deleted": { statusId: string; accountId: string; audience?: StatusAudience };
  /** The quoted author revoked a quote of their status (domain/quotes/manage.ts): `statusId` is the quoting status. */
  "quote.revoked": { statusId: string; quotedStatusId: string; accountId: string };
  /** A pending quote was accepted or rejected by the quoted author's server (domain/quotes/remote.ts). */
  "quote.settled": { statusId: string; quotedStatusId: string };
  /** Its author changed who may quote a status (PUT /api/v1/statuses/:id/interaction_policy). */
  "status.quote_policy_changed": { statusId: string; accountId: string };
  "reblog.created": { statusId: string; reblogOfId: string; accountId: string };
  "reblog.removed": { statusId: string; reblogOfId: string; accountId: string };
  "favourite.created": { favouriteId: string; accountId: string; statusId: string };
  /** An account voted on a status's poll (`choices`: option indices); a local vote on a remote poll goes out. */
  "poll.voted": { statusId: string; accountId: string; choices: number[] };
  /** The favourite is already forgotten and counted down; its rows and notification are a subscriber's work. */
  "favourite.removed": { favouriteId: string; accountId: string; statusId: string };
  "follow.created": { followerId: string; targetId: string };
  "follow.requested": { requestId: string; requesterId: string; targetId: string };
  "follow.accepted": { followerId: string; targetId: string };
  "follow.rejected": { requesterId: string; targetId: string; uri?: string | null };
  /** An unfollow, a removal from followers, or a withdrawn request. */
  /** `uri`: the removed follow's (or request's) Follow id, for the Undo or Reject that names it. */
  "follow.removed": { followerId: string; targetId: string; uri?: string | null };
  "block.created": { blockId: string; blockerId: string; targetId: string };
  /** `uri`: the lifted Block's id, for the Undo that names it. */
  "block.removed": { blockerId: string; targetId: string; uri?: string | null };
  "mute.created": { muteId: string; accountId: string; targetId: string; expiresAt: number | null };
  "mute.removed": { accountId: string; targetId: string };
  /** A user blocked a domain (domain/relationships/domain-blocks.ts): follows both ways end in the background. */
  "domain_block.created": { accountId: string; domain: string };
  /** A local account was created (sign-up or `warren accounts create`); remote ones will come with federation. */
  "account.created": { accountId: string };
  "account.updated": { accountId: string };
  /** Staff suspended an account (domain/admin): hidden everywhere at once; its data goes at `removeAt` (ms). */
  "account.suspended": { accountId: string; suspendedAt: number; removeAt: number };
  /** Staff asked for a suspended account's data to be deleted now (DELETE /api/v1/admin/accounts/:id). */
  "account.data_deletion": { accountId: string };
  /** An account moved to `targetId` (domain/accounts/migration.ts, or a `Move` received: federation/moves.ts):
   * its local followers are carried over in batches, each batch recording the event again with `after`, the
   * last follower id done (domain/accounts/move-followers.ts); the first one (no `after`) sends the `Move`. */
  "account.moved": { accountId: string; targetId: string; after?: string };
  /** Staff created, changed or lifted the instance domain block of `domain`: its severity is applied to the
   * accounts of that domain (and its subdomains) already known (domain/admin/domain-block-accounts.ts). */
  "instance_domain_block.changed": { domain: string };
  /** A user uploaded a follows, blocks or mutes file in /settings/import: its rows are to be applied (domain/accounts/import.ts). */
  "account.import_requested": { accountId: string; importId: string };
  /** Staff warned or acted on a local account whose owner is to be told (the warning's e-mail). */
  "account.warned": { accountId: string; warningId: string };
  /** A confirmation mail is to go to `email` (sign-up with confirmation required, or a resend; domain/auth). */
  "user.confirmation_requested": { accountId: string; email: string };
  /** A local user confirmed their e-mail address through the mailed link. */
  "user.confirmed": { accountId: string };
  /** Someone asked for a password reset link for this user (/auth/password/new). */
  "user.password_reset_requested": { accountId: string };
  /** /settings/email: a confirmation link is to go to the new address (domain/auth/email-change.ts) */
  "user.email_change_requested": { accountId: string; email: string };
  "notification.created": { recipientId: string; notificationId: string };
  /** A recipient accepted a notification request: the sender's held notifications are to join the normal list. */
  "notification_request.accepted": { recipientId: string; requestId: string; fromAccountId: string };
  /** A recipient dismissed a notification request: the sender's held notifications (up to then) are to go. */
  "notification_request.dismissed": { recipientId: string; fromAccountId: string };
  /** The operator published or removed an announcement (`warren announcements`), or a user reacted to one or withdrew a reaction. */
  "announcement.published": { announcementId: string };
  "announcement.deleted": { announcementId: string };
  "announcement.reacted": { announcementId: string; name: string };
  "list.member_added": { ownerId: string; listId: string; accountId: string };
  "list.deleted": { listId: string };
  /** An upload was stored; `processing`: it waits for its video/audio job. */
  "media.uploaded": { mediaId: string; accountId: string; processing: boolean };
  /** The status an upload was on was deleted for redrafting: the upload is free again, for a day. */
  "media.detached": { mediaId: string; accountId: string };
  /** A user asked for their annual report of `year` (POST /api/v1/annual_reports/:year/generate). */
  "annual_report.requested": { accountId: string; year: number };
  /** A report was filed (by a local user; by another server's `Flag` with federation). Staff are notified by a
   * subscriber; a forwarded one goes to the reported account's server as a `Flag` (federation/flags.ts), and
   * to the servers of its statuses' reply targets on `forwardToDomains` (absent: the account's own). */
  "report.created": { reportId: string; accountId: string; targetAccountId: string; forwardToDomains?: string[] };
}

/** Whom a status was addressed to (src/federation/status-delivery.ts reaches the same accounts again). */
export interface StatusAudience {
  visibility: Visibility;
  mentionIds: string[];
  inReplyToAccountId: string | null;
  /** The author of the status it quotes (who may see it whatever its visibility). */
  quotedAccountId?: string | null;
  /** Remote accounts that reblogged, favourited or replied to it (one per server inbox): a Delete reaches them. */
  interactorIds?: string[];
}

export type EventType = keyof EventPayloads;
export type Origin = "local" | "remote";

export interface DomainEvent<T extends EventType = EventType> {
  type: T;
  payload: EventPayloads[T];
  origin: Origin;
  /** When it happened (ms). */
  at: number;
}

/** What a subscriber gets when it runs (a job's context): the domain's Deps, and stream signals. */
export interface SubscriberContext extends Deps {
  emit: EmitSignal;
  job: { attempt: number };
}

export interface Subscriber<T extends EventType = EventType> {
  /** Unique; also the type of its jobs, so it names the work, not the event (`timelines.fan_out`). */
  name: string;
  on: T;
  lane: NonNullable<EnqueueOptions["lane"]>;
  /** Delivery out of this server (federation, push): never for events that came from elsewhere. */
  localOnly?: boolean;
  /** Run later than at once (a mute's expiry); null: not at all for this event. */
  delayMs?: (event: DomainEvent<T>) => number | null;
  /** A time limit other than the queue's default. */
  timeoutMs?: number;
  /** Whose work the job is (media: the uploader), for lanes that share fairly between groups (jobs/fair.ts). */
  group?: (event: DomainEvent<T>) => string;
  run(ctx: SubscriberContext, event: DomainEvent<T>): void | Promise<void>;
  /**
   * Runs the jobs of this subscriber in one batch as one (fan-out merges their writes); used instead of `run`
   * when the queue has several at once. If it throws, each of them fails and is retried on its own.
   */
  runBatch?(ctx: Omit<SubscriberContext, "job">, events: DomainEvent<T>[]): void | Promise<void>;
}

/** The job payload of a subscriber's job. */
export interface SubscriberJob<T extends EventType = EventType> {
  event: DomainEvent<T>;
}

// Keyed by event type, so each list only holds subscribers of that type (hence `any` below).
const registry = new Map<EventType, Subscriber<any>[]>();
const byName = new Map<string, Subscriber<any>>();

/** Adds subscribers (built-in ones at start-up; tests add their own through an extra job-handler module). */
export function registerSubscribers(subscribers: readonly Subscriber<any>[]): void {
  for (const subscriber of subscribers) {
    if (byName.has(subscriber.name)) {
      if (byName.get(subscriber.name) === subscriber) continue;
      throw new Error(`subscriber ${subscriber.name} is already registered`);
    }
    byName.set(subscriber.name, subscriber);
    registry.set(subscriber.on, [...(registry.get(subscriber.on) ?? []), subscriber]);
  }
}

export function subscribersOf<T extends EventType>(type: T): readonly Subscriber<T>[] {
  return registry.get(type) ?? [];
}

/**
 * Inside a write: records the event by enqueueing one job per subscriber (remote-origin events skip the
 * local-only ones). Returns the names of the subscribers it was given to.
 */
export function recordEvent<T extends EventType>(
  deps: { jobs: JobEnqueuer },
  type: T,
  payload: EventPayloads[T],
  origin: Origin = "local",
  at = Date.now(),
): string[] {
  const event: DomainEvent<T> = { type, payload, origin, at };
  const given: string[] = [];
  for (const subscriber of subscribersOf(type)) {
    if (origin === "remote" && subscriber.localOnly) continue;
    const delayMs = subscriber.delayMs ? subscriber.delayMs(event) : 0;
    if (delayMs === null) continue;
    const job: SubscriberJob<T> = { event };
    deps.jobs.enqueue(subscriber.name, job, { lane: subscriber.lane, delayMs: Math.max(0, delayMs), group: subscriber.group?.(event) });
    given.push(subscriber.name);
  }
  return given;
}
