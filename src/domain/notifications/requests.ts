// Notification requests (Mastodon 4.3+; docs/notifications.md): the notifications a recipient's policy held
// back, one request per sender. Accepting lets the sender through from then on and merges its notifications
// into the normal list; dismissing deletes them. Both are one write here; moving or deleting the held
// notifications is a subscriber's work (`notifications.merge_request`, `notifications.drop_request`).
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import type { Store } from "../../store/db.ts";
import {
  getRequest,
  hasMerging,
  pageRequests,
  putMerging,
  putPermission,
  putRequest,
  removeMerging,
  removeRequest,
  requestOfSender,
} from "../../store/notification-policy.ts";
import { insertNotification, notificationsBetween, removeNotification } from "../../store/notifications.ts";
import { isBlocking } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { loadStatuses } from "../statuses/load.ts";
import { recordEvent, type SubscriberContext } from "../events.ts";
import { STREAM_TOPIC } from "../streaming/signals.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { NotificationRecord, NotificationRequestRecord } from "../../model/notifications.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { LoadedStatus } from "../statuses/loaded.ts";

/** GET /api/v1/notifications/requests: 40, at most 80 (API.md §9). */
export const REQUEST_LIST_LIMIT = 40;
/** A request's notifications_count stops here (Mastodon's MAX_MEANINGFUL_COUNT). */
export const REQUEST_COUNT_CAP = 100;
/** Ids in one bulk accept or dismiss. */
export const BULK_IDS_MAX = 100;
/** Notifications moved or deleted per transaction by the subscribers. */
const BATCH = 500;

/** Shown while its sender exists, is not suspended and is not blocked by the recipient. */
export function requestShown(store: Store, request: NotificationRequestRecord): boolean {
  const from = getAccount(store, request.fromAccountId);
  return !!from && !from.suspended && !isBlocking(store, request.recipientId, request.fromAccountId);
}

function heldFrom(store: Store, recipientId: string, fromAccountId: string): NotificationRecord[] {
  return notificationsBetween(store, recipientId, fromAccountId).filter((n) => n.filtered);
}

/** Inside the write that stored a filtered notification: opens or updates its sender's request. */
export function holdInRequest(store: Store, n: NotificationRecord, now: number): void {
  const existing = requestOfSender(store, n.recipientId, n.fromAccountId);
  // Counted as they come (a recount would read every notification between the two each time).
  const count = Math.min(REQUEST_COUNT_CAP, (existing?.notificationsCount ?? 0) + 1);
  putRequest(store, {
    v: 1,
    id: existing?.id ?? newId(now),
    recipientId: n.recipientId,
    fromAccountId: n.fromAccountId,
    lastStatusId: n.statusId ?? existing?.lastStatusId ?? null,
    notificationsCount: count,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  });
}

export function listRequests(store: Store, recipientId: string, query: PageQuery): NotificationRequestRecord[] {
  return pageRequests(store, recipientId, query, (r) => requestShown(store, r));
}

export function findRequest(store: Store, recipientId: string, rawId: string): NotificationRequestRecord {
  const id = normaliseId(rawId);
  const request = id ? getRequest(store, recipientId, id) : undefined;
  if (!request || !requestShown(store, request)) throw new NotFound();
  return request;
}

/** The recipient's requests among `rawIds` (unknown ones left out). */
function requestsAmong(store: Store, recipientId: string, rawIds: readonly string[]): NotificationRequestRecord[] {
  const out: NotificationRequestRecord[] = [];
  for (const raw of new Set(rawIds)) {
    const id = normaliseId(raw);
    const request = id ? getRequest(store, recipientId, id) : undefined;
    if (request) out.push(request);
  }
  return out;
}

export interface LoadedRequest {
  request: NotificationRequestRecord;
  from: AccountRecord;
  /** the newest held status, while the recipient may still see it */
  lastStatus: LoadedStatus | null;
}

/** Requests with their senders and last statuses, read for the page in one pass (senders gone are left out). */
export function loadRequests(deps: Deps, recipientId: string, requests: readonly NotificationRequestRecord[]): { viewerId: string; requests: LoadedRequest[] } {
  const statuses = requests.flatMap((r) => {
    const status = r.lastStatusId ? getStatus(deps.store, r.lastStatusId) : undefined;
    return status && !status.deletedAt && canSeeStatus(deps.store, recipientId, status) ? [status] : [];
  });
  const loaded = new Map(loadStatuses(deps, recipientId, statuses, { context: "notifications" }).statuses.map((s) => [s.status.id, s]));
  const out: LoadedRequest[] = [];
  for (const request of requests) {
    const from = getAccount(deps.store, request.fromAccountId);
    if (from) out.push({ request, from, lastStatus: (request.lastStatusId && loaded.get(request.lastStatusId)) || null });
  }
  return { viewerId: recipientId, requests: out };
}

type WriteDeps = Pick<Deps, "store"> & { jobs: JobEnqueuer };

function accept(deps: WriteDeps, request: NotificationRequestRecord, now: number): void {
  removeRequest(deps.store, request);
  putPermission(deps.store, request.recipientId, request.fromAccountId, now);
  putMerging(deps.store, request.recipientId, request.id, request.fromAccountId);
  recordEvent(deps, "notification_request.accepted", { recipientId: request.recipientId, requestId: request.id, fromAccountId: request.fromAccountId }, "local", now);
}

function dismiss(deps: WriteDeps, request: NotificationRequestRecord, now: number): void {
  removeRequest(deps.store, request);
  recordEvent(deps, "notification_request.dismissed", { recipientId: request.recipientId, fromAccountId: request.fromAccountId }, "local", now);
}

/** One request (404 unless it is the recipient's) or, with `single` false, every one of `rawIds` found. */
async function act(deps: Deps, recipientId: string, rawIds: readonly string[], single: boolean, action: typeof accept): Promise<void> {
  const now = Date.now();
  await deps.store.write(() => {
    const requests = single ? [findRequest(deps.store, recipientId, rawIds[0] ?? "")] : requestsAmong(deps.store, recipientId, rawIds);
    for (const request of requests) action(deps, request, now);
  });
}

export const acceptRequests = (deps: Deps, recipientId: string, rawIds: readonly string[], single = false) => act(deps, recipientId, rawIds, single, accept);
export const dismissRequests = (deps: Deps, recipientId: string, rawIds: readonly string[], single = false) => act(deps, recipientId, rawIds, single, dismiss);

/** Have the notifications of every accepted request reached the normal list? */
export function requestsMerged(store: Store, recipientId: string): boolean {
  return !hasMerging(store, recipientId);
}

/** Subscriber: the sender's held notifications join the normal list, then the request counts as merged and,
 * once no other accepted request is merging, the recipient's streams hear `notifications_merged`. */
export async function mergeAcceptedRequest(ctx: Pick<SubscriberContext, "store" | "emit">, p: { recipientId: string; requestId: string; fromAccountId: string }): Promise<void> {
  const { store } = ctx;
  for (;;) {
    const done = await store.write(() => {
      const batch = heldFrom(store, p.recipientId, p.fromAccountId).slice(0, BATCH);
      for (const n of batch) {
        const { filtered: _held, ...rest } = n;
        insertNotification(store, rest);
      }
      if (batch.length < BATCH) removeMerging(store, p.recipientId, p.requestId);
      return batch.length < BATCH;
    });
    if (!done) continue;
    if (requestsMerged(store, p.recipientId)) ctx.emit({ topic: STREAM_TOPIC, kind: "notifications_merged", accountId: p.recipientId });
    return;
  }
}

/** Subscriber: the held notifications of a dismissed request (up to its dismissal) are deleted. */
export async function dropDismissedRequest(ctx: Pick<SubscriberContext, "store">, p: { recipientId: string; fromAccountId: string }, at: number): Promise<void> {
  const { store } = ctx;
  for (;;) {
    const done = await store.write(() => {
      // A newer request of the same sender keeps what arrived after the dismissal.
      const batch = heldFrom(store, p.recipientId, p.fromAccountId).filter((n) => n.createdAt <= at).slice(0, BATCH);
      for (const n of batch) removeNotification(store, n);
      return batch.length < BATCH;
    });
    if (done) return;
  }
}
