// Account migration across servers (docs/federation.md "Moving accounts"). Outgoing: a local account moved
// (domain/accounts/migration.ts records `account.moved`) sends `Move` (actor and object: its actor, target: the
// new actor) to its followers' servers and to the target's, as Mastodon's MoveDistributionWorker. Incoming: a
// `Move` is Mastodon's ActivityPub::Activity::Move with its guards: the object is the signing actor itself, the
// target is fetched afresh and must list the origin in its `alsoKnownAs`, is not suspended nor moved itself,
// and an origin moves at most once per cool-down (a repeat to the same target is ignored). Then the origin's
// `moved` points to the target and `account.moved` carries its local followers over in a job (move-followers.ts).
import { Move } from "@fedify/vocab";
import type { InboxContext } from "@fedify/fedify";
import { getAccount, putAccount } from "../store/accounts.ts";
import { recordEvent, type EventPayloads, type SubscriberContext } from "../domain/events.ts";
import { MOVE_COOLDOWN_MS } from "../domain/accounts/migration.ts";
import type { FederationDeps } from "./context.ts";
import { context } from "./fedify-context.ts";
import { remoteSender } from "./inbound-accounts.ts";
import { recipientOf, remoteFollowerRecipients } from "./recipients.ts";
import { remoteAccountByUri } from "./remote-accounts.ts";
import type { AccountRecord } from "../model/accounts.ts";

// Incoming

/** The target of a Move by `origin`, when every guard holds; null otherwise. */
async function verifiedTarget(deps: FederationDeps, origin: AccountRecord, targetId: URL): Promise<AccountRecord | null> {
  if (origin.movedToAccountId && origin.movedAt && Date.now() - origin.movedAt < MOVE_COOLDOWN_MS) return null;
  // Fetched afresh (Mastodon: FetchRemoteAccountService), so an alias set a moment ago counts.
  const target = await remoteAccountByUri(deps, targetId, true);
  if (!target || target.id === origin.id || target.suspended || target.movedToAccountId) return null;
  return (target.alsoKnownAs ?? []).includes(origin.uri) ? target : null;
}

export async function onMove(deps: FederationDeps, _ctx: InboxContext<void>, activity: Move): Promise<void> {
  // Fedify has checked that the signer is the actor; only an actor's own move is taken.
  if (!activity.actorId || !activity.targetId || activity.objectId?.href !== activity.actorId.href) return;
  const origin = await remoteSender(deps, activity.actorId);
  if (!origin) return;
  const target = await verifiedTarget(deps, origin, activity.targetId);
  if (!target) return;
  await deps.store.write(() => {
    const current = getAccount(deps.store, origin.id);
    if (!current || current.movedToAccountId === target.id) return;
    const now = Date.now();
    putAccount(deps.store, { ...current, movedToAccountId: target.id, movedToUri: target.uri, movedAt: now });
    recordEvent(deps, "account.updated", { accountId: current.id }, "remote", now);
    recordEvent(deps, "account.moved", { accountId: current.id, targetId: target.id }, "remote", now);
  });
}

// Outgoing (subscriber)

/** account.moved (its first batch): a local account moved; its followers' servers and the target's hear it. */
export async function sendMove(ctx: SubscriberContext, event: EventPayloads["account.moved"], at: number): Promise<void> {
  if (event.after !== undefined) return;
  const account = getAccount(ctx.store, event.accountId);
  const target = getAccount(ctx.store, event.targetId);
  if (!account || !target || account.domain !== null || account.movedToAccountId !== target.id) return;
  const recipients = remoteFollowerRecipients(ctx.store, account.id);
  if (target.domain !== null) recipients.push(recipientOf(target));
  if (recipients.length === 0) return;
  const fed = await context(ctx);
  const actor = fed.getActorUri(account.username);
  await fed.sendActivity(
    { identifier: account.username },
    recipients,
    new Move({ id: new URL(`${actor.href}#moves/${at}`), actor, object: actor, target: new URL(target.uri) }),
    { preferSharedInbox: true },
  );
}
