// Who on other servers has a copy of a local status because they touched it: the remote accounts that
// reblogged, favourited or replied to it (Mastodon's StatusReachFinder: reblogs_account_ids,
// favourites_account_ids, replies_account_ids). Kept in the status.deleted event (domain/statuses/delete.ts),
// read while the rows still exist, so that its Delete reaches them too (src/federation/status-delivery.ts).
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getStatus, reblogIdsOfStatus, replyIds } from "../../store/statuses.ts";
import { favouritesOfStatus } from "../../store/statuses-interactions.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Rows read per kind at most: a Delete goes per server, and a viral status's servers show up early. */
const SCAN_LIMIT = 5_000;

/** Remote accounts that interacted with `status`, one per inbox a delivery would use (its server's shared
 * inbox, or its own inbox), so the event stays small however many accounts of one server took part. */
export function remoteInteractorIds(store: Store, status: StatusRecord): string[] {
  if (!status.local) return [];
  const accountIds = [
    ...reblogIdsOfStatus(store, status.id, SCAN_LIMIT).map((id) => getStatus(store, id)?.accountId),
    ...favouritesOfStatus(store, status.id, SCAN_LIMIT).map((row) => row.accountId),
    ...replyIds(store, status.id).slice(0, SCAN_LIMIT).map((id) => getStatus(store, id)?.accountId),
  ];
  const byInbox = new Map<string, string>();
  for (const id of accountIds) {
    const account = id ? getAccount(store, id) : undefined;
    if (!account || account.domain === null || !account.inbox) continue;
    const inbox = account.sharedInbox ?? account.inbox;
    if (!byInbox.has(inbox)) byInbox.set(inbox, account.id);
  }
  return [...byInbox.values()];
}
