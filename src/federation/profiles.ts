// Profiles across servers (docs/federation.md). Incoming: a remote actor's Update of itself refreshes its
// stored account through the same cleaning path as a fetch (remote-accounts.ts storeActor); its Delete of
// itself removes the account (deleteRemoteActor). Outgoing: a local account's profile change
// (`account.updated`) becomes an Update carrying its actor document, as served, to its remote followers.
// Updates and Deletes of other objects (statuses) are not handled here.
import { Delete, isActor, PUBLIC_COLLECTION, Update } from "@fedify/vocab";
import type { InboxContext } from "@fedify/fedify";
import { findAccountByUri, getAccount } from "../store/accounts.ts";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import type { FederationDeps } from "./context.ts";
import { localActor } from "./actor.ts";
import { context } from "./fedify-context.ts";
import { remoteFollowerRecipients } from "./recipients.ts";
import { deleteRemoteActor, remoteAccountByUri, storeActor } from "./remote-accounts.ts";

/** Whether an activity is about its own actor (Fedify has checked that the signer is that actor). */
function aboutItself(activity: Update | Delete): activity is (Update | Delete) & { actorId: URL } {
  return activity.actorId !== null && activity.objectId?.href === activity.actorId.href;
}

// Incoming

export async function onUpdate(deps: FederationDeps, _ctx: InboxContext<void>, activity: Update): Promise<void> {
  if (!aboutItself(activity)) return;
  const known = findAccountByUri(deps.store, activity.actorId.href);
  if (!known) {
    // Never seen before: stored from its own document, as any sender is.
    await remoteAccountByUri(deps, activity.actorId);
    return;
  }
  if (known.domain === null) return;
  // The embedded actor is used only when it comes from the Update's own origin; Fedify fetches it otherwise.
  const actor = await activity.getObject().catch(() => null);
  if (isActor(actor) && actor.id?.href === known.uri) await storeActor(deps, actor, known.domain);
}

export async function onDelete(deps: FederationDeps, _ctx: InboxContext<void>, activity: Delete): Promise<void> {
  if (aboutItself(activity)) await deleteRemoteActor(deps, activity.actorId);
}

// Outgoing (subscriber)

/** account.updated: a local account's profile changed; its remote followers get the actor as it is now. */
export async function sendProfileUpdate(ctx: SubscriberContext, event: EventPayloads["account.updated"], at: number): Promise<void> {
  const account = getAccount(ctx.store, event.accountId);
  // Gone for good: its actor is a Tombstone now, not something to update.
  if (!account || account.domain !== null || account.dataDeletedAt) return;
  const recipients = remoteFollowerRecipients(ctx.store, account.id);
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const actor = localActor(fed, ctx.store, ctx.config, account, await fed.getActorKeyPairs(account.username));
  const actorUri = fed.getActorUri(account.username);
  await fed.sendActivity(
    { identifier: account.username },
    recipients,
    new Update({ id: new URL(`${actorUri.href}#updates/${at}`), actor: actorUri, to: PUBLIC_COLLECTION, object: actor }),
    { preferSharedInbox: true },
  );
}
