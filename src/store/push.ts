// Web Push: the instance's VAPID key pair (in `meta`) and the subscriptions of access tokens (keyspace
// `push_subscriptions`). A subscription belongs to one access token (Mastodon: one per token, POST replaces
// it) and goes with it: revoking the token removes it in the same write (store/oauth.ts). One keyspace holds
// three families, told apart by the key's first element:
//   ["t", tokenHash]                     → PushSubscriptionRecord
//   ["a", accountId, tokenHash]          → null   (the account's subscriptions, for delivery)
//   ["d", notificationId, subscriptionId] → at (ms): delivered already by a job that failed for another
//                                           subscription of the account and will be retried (no duplicates)
import { END, type Store } from "./handle.ts";
import type { PushSubscriptionRecord, VapidKeys } from "../model/notifications.ts";

const BY_TOKEN = "t";
const BY_ACCOUNT = "a";
const DELIVERED = "d";

const VAPID_PUBLIC = "vapid_public_key";
const VAPID_PRIVATE = "vapid_private_key";
const SEQUENCE = "push_subscription_seq";

export function getVapidKeys(store: Store): VapidKeys | undefined {
  const publicKey: string | undefined = store.db.meta.get(VAPID_PUBLIC);
  const privateKey: string | undefined = store.db.meta.get(VAPID_PRIVATE);
  return publicKey && privateKey ? { publicKey, privateKey } : undefined;
}

/**
 * Stores `fresh` unless a key pair is stored already (another process may have made one first), in a
 * synchronous transaction of its own (start-up, before anything else writes). Returns the stored pair.
 */
export function putVapidKeysOnce(store: Store, fresh: VapidKeys): VapidKeys {
  return store.db.meta.transactionSync(() => {
    const stored = getVapidKeys(store);
    if (stored) return stored;
    store.db.meta.put(VAPID_PUBLIC, fresh.publicKey);
    store.db.meta.put(VAPID_PRIVATE, fresh.privateKey);
    return fresh;
  });
}

export function getPushSubscription(store: Store, tokenHash: string): PushSubscriptionRecord | undefined {
  return store.db.pushSubscriptions.get([BY_TOKEN, tokenHash]);
}

/** Inside a write: the next subscription id (1, 2, …). */
export function nextPushSubscriptionId(store: Store): number {
  const next = ((store.db.meta.get(SEQUENCE) as number | undefined) ?? 0) + 1;
  store.db.meta.put(SEQUENCE, next);
  return next;
}

/** Inside a write: stores the token's subscription, replacing the one it had. */
export function putPushSubscription(store: Store, record: PushSubscriptionRecord): void {
  const previous = getPushSubscription(store, record.tokenHash);
  if (previous && previous.accountId !== record.accountId) store.db.pushSubscriptions.remove([BY_ACCOUNT, previous.accountId, previous.tokenHash]);
  store.db.pushSubscriptions.put([BY_TOKEN, record.tokenHash], record);
  store.db.pushSubscriptions.put([BY_ACCOUNT, record.accountId, record.tokenHash], null);
}

/** Inside a write: removes the token's subscription (only the one with `id` when given); returns it. */
export function removePushSubscription(store: Store, tokenHash: string, id?: number): PushSubscriptionRecord | undefined {
  const record = getPushSubscription(store, tokenHash);
  if (!record || (id !== undefined && record.id !== id)) return undefined;
  store.db.pushSubscriptions.remove([BY_TOKEN, tokenHash]);
  store.db.pushSubscriptions.remove([BY_ACCOUNT, record.accountId, tokenHash]);
  return record;
}

/** The subscriptions of an account's tokens (a handful: one per signed-in app). */
export function pushSubscriptionsOf(store: Store, accountId: string): PushSubscriptionRecord[] {
  const out: PushSubscriptionRecord[] = [];
  for (const key of store.db.pushSubscriptions.getKeys({ start: [BY_ACCOUNT, accountId], end: [BY_ACCOUNT, accountId, END] })) {
    const record = getPushSubscription(store, (key as string[])[2]!);
    if (record) out.push(record);
  }
  return out;
}

/** Whether any of the account's tokens has a subscription (one key read: most accounts have none). */
export function hasPushSubscriptions(store: Store, accountId: string): boolean {
  for (const _ of store.db.pushSubscriptions.getKeys({ start: [BY_ACCOUNT, accountId], end: [BY_ACCOUNT, accountId, END], limit: 1 })) return true;
  return false;
}

/** The subscriptions a notification was delivered to by an earlier attempt of its job. */
export function deliveredTo(store: Store, notificationId: string): Set<number> {
  const out = new Set<number>();
  for (const key of store.db.pushSubscriptions.getKeys({ start: [DELIVERED, notificationId], end: [DELIVERED, notificationId, Number.MAX_SAFE_INTEGER] })) {
    out.add((key as [string, string, number])[2]);
  }
  return out;
}

/** Inside a write. */
export function markDelivered(store: Store, notificationId: string, subscriptionIds: readonly number[], at: number): void {
  for (const id of subscriptionIds) store.db.pushSubscriptions.put([DELIVERED, notificationId, id], at);
}

/** Inside a write: forgets the delivery marks of a notification whose job is done. */
export function forgetDelivered(store: Store, notificationId: string): void {
  for (const id of deliveredTo(store, notificationId)) store.db.pushSubscriptions.remove([DELIVERED, notificationId, id]);
}
