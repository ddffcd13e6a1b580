// A local account deleted for good (its data removed: by its owner at /settings/delete, by staff, or when a
// suspension's retention ends) is announced with a `Delete` of its actor, signed by the account, as Mastodon's
// DeleteAccountService#delete_actor! does: to every server this one knows an account of (Mastodon: its
// followers', its followings' and every other known inbox), one delivery per shared inbox. Known servers
// are a superset of those that know the account (followers, followings, accounts it mentioned, replied to,
// favourited or boosted), and they are read from the accounts, which the removal leaves in place, so the
// Delete does not depend on how far the removal got. The account's keys are kept (accounts-removal.ts), as
// Mastodon keeps them on the account record: the Delete is signed with the key receivers have cached, while
// the actor itself answers 410 (Mastodon accepts a Delete of an actor that 410s when its key is known).
import { Delete, PUBLIC_COLLECTION, type Recipient } from "@fedify/vocab";
import type { Store } from "../store/db.ts";
import { getAccount, remoteAccountIdsWhere } from "../store/accounts.ts";
import type { SubscriberContext } from "../domain/events.ts";
import { context } from "./fedify-context.ts";
import { recipientOf } from "./recipients.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** One remote account per inbox a delivery would use (shared inbox, else its own), suspended ones aside. */
function knownServers(store: Store): Recipient[] {
  const byInbox = new Map<string, AccountRecord>();
  for (const id of remoteAccountIdsWhere(store, () => true)) {
    const account = getAccount(store, id);
    if (!account || account.suspended || !account.inbox) continue;
    const inbox = account.sharedInbox ?? account.inbox;
    if (!byInbox.has(inbox)) byInbox.set(inbox, account);
  }
  return [...byInbox.values()].map(recipientOf);
}

/** account.data_deletion, or a suspension whose retention ended (`retention`: that suspension's). */
export async function sendActorDelete(ctx: SubscriberContext, accountId: string, retention?: { suspendedAt: number; removeAt: number }): Promise<void> {
  const account = getAccount(ctx.store, accountId);
  if (!account || account.domain !== null || !account.suspended) return;
  if (retention) {
    // Lifted (or suspended anew, with its own retention) since: the account stays.
    if (account.suspendedAt !== retention.suspendedAt) return;
    // Deleted before the retention ended: that deletion's event sent the Delete.
    if (account.dataDeletedAt != null && account.dataDeletedAt < retention.removeAt) return;
  }
  // Servers cut off by an instance domain block are dropped by the delivery gate (delivery.ts).
  const recipients = knownServers(ctx.store);
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const actor = fed.getActorUri(account.username);
  await fed.sendActivity(
    { identifier: account.username },
    recipients,
    new Delete({ id: new URL(`${actor.href}#delete`), actor, tos: [PUBLIC_COLLECTION], object: actor }),
    { preferSharedInbox: true },
  );
}
