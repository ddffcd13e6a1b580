// Who an activity goes to: remote accounts as Fedify recipients (their inbox and shared inbox), and a local
// account's remote followers. Fedify's sendActivity (with preferSharedInbox) sends once per shared inbox, so
// a post to many followers on one server is one delivery.
import type { Recipient } from "@fedify/vocab";
import type { Store } from "../store/db.ts";
import { getAccount } from "../store/accounts.ts";
import { remoteFollowersOf } from "../domain/timelines/followers.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** A remote account as a recipient of activities. */
export function recipientOf(account: AccountRecord): Recipient {
  return {
    id: new URL(account.uri),
    inboxId: new URL(account.inbox),
    endpoints: account.sharedInbox ? { sharedInbox: new URL(account.sharedInbox) } : null,
  };
}

/** The remote, unsuspended followers of `accountId`. */
export function remoteFollowers(store: Store, accountId: string): AccountRecord[] {
  const followers: AccountRecord[] = [];
  for (const id of remoteFollowersOf(store, accountId)) {
    const follower = getAccount(store, id);
    if (follower && follower.domain !== null && !follower.suspended && follower.inbox) followers.push(follower);
  }
  return followers;
}

/** The remote followers of `accountId` as recipients. */
export function remoteFollowerRecipients(store: Store, accountId: string): Recipient[] {
  return remoteFollowers(store, accountId).map(recipientOf);
}
