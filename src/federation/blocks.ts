// Blocks across servers (docs/federation.md). Incoming: a remote actor's Block of a local account, and its
// Undo, call the same block cores as the API (domain/relationships/block.ts) with the remote account as actor
// and origin "remote": the core removes the follows both ways and the local account sees `blocked_by`.
// Outgoing: local-only subscribers (reactions/relationships.ts) send a local account's Block of a remote one, and
// its Undo when lifted. The Block alone ends the follows on the other side (its receiver removes them both
// ways, as this server and Mastodon do), so the block core records no follow.removed and no Undo(Follow) or
// Reject(Follow) goes with it.
import { Block, Undo } from "@fedify/vocab";
import type { Context, InboxContext } from "@fedify/fedify";
import { NotPermitted } from "../lib/errors.ts";
import { getAccount } from "../store/accounts.ts";
import { getBlock, isBlocking } from "../store/relationships.ts";
import { block, unblock } from "../domain/relationships/block.ts";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import type { FederationDeps } from "./context.ts";
import { localAccountOf, remoteSender } from "./inbound-accounts.ts";
import { context } from "./fedify-context.ts";
import { recipientOf } from "./recipients.ts";
import { blockUriOf } from "../domain/relationships/activity-uris.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** The remote blocker and local target of a Block (or of the Block an Undo carries). */
async function parties(deps: FederationDeps, ctx: Context<void>, activity: Block) {
  const target = localAccountOf(ctx, deps, activity.objectId);
  const actor = target ? await remoteSender(deps, activity.actorId) : null;
  return actor && target ? { actor, target } : null;
}

// Incoming

/** Block: Fedify has checked that the signer is the activity's actor; the object must be a local account. */
export async function onBlock(deps: FederationDeps, ctx: InboxContext<void>, activity: Block): Promise<void> {
  const found = await parties(deps, ctx, activity);
  if (!found) return;
  try {
    await block(deps, found.actor, found.target, "remote", activity.id?.href);
  } catch (error) {
    if (!(error instanceof NotPermitted)) throw error;
  }
}

/** Undo(Block), once follows.ts's onUndo has checked that the Undo's actor is the Block's. */
export async function undoBlock(deps: FederationDeps, ctx: InboxContext<void>, activity: Block): Promise<void> {
  const found = await parties(deps, ctx, activity);
  if (found) await unblock(deps, found.actor, found.target, "remote");
}

// Outgoing (subscribers)

/** The local blocker and remote target of a block event, or null when it is not one to send. */
function localToRemote(ctx: SubscriberContext, blockerId: string, targetId: string): [AccountRecord, AccountRecord] | null {
  const blocker = getAccount(ctx.store, blockerId);
  const target = getAccount(ctx.store, targetId);
  if (!blocker || !target || blocker.domain !== null || target.domain === null || blocker.suspended) return null;
  return target.inbox ? [blocker, target] : null;
}

/** block.created: a local account blocked a remote one. */
export async function sendBlock(ctx: SubscriberContext, event: EventPayloads["block.created"]): Promise<void> {
  const accounts = localToRemote(ctx, event.blockerId, event.targetId);
  if (!accounts) return;
  const [blocker, target] = accounts;
  // Lifted (or lifted and made again, which sends its own) since.
  const record = getBlock(ctx.store, blocker.id, target.id);
  if (record?.id !== event.blockId) return;
  const fed = await context(ctx);
  await fed.sendActivity(
    { identifier: blocker.username },
    recipientOf(target),
    new Block({ id: new URL(blockUriOf(blocker, record)!), actor: fed.getActorUri(blocker.username), object: new URL(target.uri) }),
  );
}

/** block.removed: a local account unblocked a remote one. */
export async function sendUnblock(ctx: SubscriberContext, event: EventPayloads["block.removed"], at: number): Promise<void> {
  const accounts = localToRemote(ctx, event.blockerId, event.targetId);
  if (!accounts) return;
  const [blocker, target] = accounts;
  if (isBlocking(ctx.store, blocker.id, target.id)) return; // blocked again since
  const fed = await context(ctx);
  const actor = fed.getActorUri(blocker.username);
  await fed.sendActivity(
    { identifier: blocker.username },
    recipientOf(target),
    new Undo({
      id: new URL(`${actor.href}#blocks/${target.id}/undo/${at}`),
      actor,
      // The Block as it was sent, with its id (GoToSocial matches by it; Mastodon by actor and object).
      object: new Block({ id: event.uri ? new URL(event.uri) : null, actor, object: new URL(target.uri) }),
    }),
  );
}
