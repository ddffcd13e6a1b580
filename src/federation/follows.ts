// Follows across servers (docs/federation.md). Incoming: the inbox listeners for Follow, Accept, Reject and
// Undo(Follow) (dispatched by undo.ts) call the same cores as the API (domain/relationships) with the remote
// account as actor and origin "remote". Outgoing: local-only subscribers (reactions/relationships.ts) turn local events into
// activities sent through Fedify, on its queue (our job queue): a local account's request to a remote one
// becomes a Follow, its unfollow (or withdrawal) an Undo(Follow); a remote follower accepted by the owner an
// Accept, rejected or removed from followers a Reject(Follow). Remote-origin events are never sent back.
// Every Follow we send has the id kept with its record (domain/relationships/activity-uris.ts), and every
// Undo, Accept and Reject embeds the Follow with the id it was sent with, ours or the remote's.
import { Accept, Follow, Reject, Undo } from "@fedify/vocab";
import type { Context, InboxContext } from "@fedify/fedify";
import { NotFound, NotPermitted } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { getAccount } from "../store/accounts.ts";
import { getFollow, getFollowRequest, isFollowing } from "../store/relationships.ts";
import { follow as followCore, unfollow } from "../domain/relationships/follow.ts";
import { authorize, reject } from "../domain/relationships/follow-requests.ts";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import type { FederationDeps } from "./context.ts";
import { localAccountOf, remoteSender } from "./inbound-accounts.ts";
import { context } from "./fedify-context.ts";
import { recipientOf } from "./recipients.ts";
import { followUriOf } from "../domain/relationships/activity-uris.ts";
import { followOwnerOf } from "./relationship-objects.ts";
import type { AccountRecord } from "../model/accounts.ts";

async function sendAccept(ctx: Context<void>, owner: AccountRecord, follower: AccountRecord, followUri: string | null): Promise<void> {
  const actor = ctx.getActorUri(owner.username);
  await ctx.sendActivity(
    { identifier: owner.username },
    recipientOf(follower),
    new Accept({
      id: new URL(`${actor.href}#accepts/follows/${newId()}`),
      actor,
      object: new Follow({ id: followUri ? new URL(followUri) : null, actor: new URL(follower.uri), object: actor }),
    }),
  );
}

async function sendReject(ctx: Context<void>, owner: AccountRecord, follower: AccountRecord, followUri: string | null): Promise<void> {
  const actor = ctx.getActorUri(owner.username);
  await ctx.sendActivity(
    { identifier: owner.username },
    recipientOf(follower),
    new Reject({
      id: new URL(`${actor.href}#rejects/follows/${newId()}`),
      actor,
      object: new Follow({ id: followUri ? new URL(followUri) : null, actor: new URL(follower.uri), object: actor }),
    }),
  );
}

// Incoming

export async function onFollow(deps: FederationDeps, ctx: InboxContext<void>, activity: Follow): Promise<void> {
  const target = localAccountOf(ctx, deps, activity.objectId);
  const actor = await remoteSender(deps, activity.actorId);
  if (!target || !actor || !activity.id) return;
  try {
    await followCore(deps, actor, target, { uri: activity.id.href }, "remote");
  } catch (error) {
    if (error instanceof NotPermitted) return sendReject(ctx, target, actor, activity.id.href);
    throw error;
  }
  // Followed at once (unlocked), or already: say so, as Mastodon does for a repeated Follow.
  if (isFollowing(deps.store, actor.id, target.id)) await sendAccept(ctx, target, actor, activity.id.href);
}

/** The local follower and remote followee an Accept or Reject of one of our Follows is about. */
async function answered(deps: FederationDeps, ctx: InboxContext<void>, activity: Accept | Reject) {
  const remote = await remoteSender(deps, activity.actorId);
  // Our Follow ids are under the follower's actor URI (activity-uris.ts); the object may be that id or the Follow.
  let local = localAccountOf(ctx, deps, activity.objectId) ?? followOwnerOf(ctx, deps, activity.objectId);
  if (!local) {
    const object = await activity.getObject({ crossOrigin: "trust" }).catch(() => null);
    if (object instanceof Follow && object.objectId?.href === remote?.uri) local = localAccountOf(ctx, deps, object.actorId);
  }
  return remote && local ? { remote, local } : null;
}

export async function onAccept(deps: FederationDeps, ctx: InboxContext<void>, activity: Accept): Promise<void> {
  const found = await answered(deps, ctx, activity);
  if (!found) return;
  try {
    await authorize(deps, found.remote, found.local, "remote");
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
  }
}

export async function onReject(deps: FederationDeps, ctx: InboxContext<void>, activity: Reject): Promise<void> {
  const found = await answered(deps, ctx, activity);
  if (!found) return;
  if (getFollowRequest(deps.store, found.local.id, found.remote.id)) {
    await reject(deps, found.remote, found.local, "remote").catch((error) => {
      if (!(error instanceof NotFound)) throw error;
    });
  } else {
    // A Reject of an accepted follow: it was removed from the followers.
    await unfollow(deps, found.local, found.remote, "remote");
  }
}

export async function undoFollow(deps: FederationDeps, ctx: InboxContext<void>, follow: Follow): Promise<void> {
  const target = localAccountOf(ctx, deps, follow.objectId);
  const actor = await remoteSender(deps, follow.actorId);
  if (target && actor) await unfollow(deps, actor, target, "remote");
}

// Outgoing (subscribers)

function pair(ctx: SubscriberContext, fromId: string, toId: string): [AccountRecord, AccountRecord] | null {
  const from = getAccount(ctx.store, fromId);
  const to = getAccount(ctx.store, toId);
  return from && to ? [from, to] : null;
}

/** follow.requested: a local account asks a remote one (still pending). */
export async function sendFollow(ctx: SubscriberContext, event: EventPayloads["follow.requested"]): Promise<void> {
  const accounts = pair(ctx, event.requesterId, event.targetId);
  if (!accounts) return;
  const [requester, target] = accounts;
  if (requester.domain !== null || target.domain === null) return;
  const request = getFollowRequest(ctx.store, requester.id, target.id);
  if (request?.id !== event.requestId) return; // withdrawn since
  const fed = await context(ctx);
  const actor = fed.getActorUri(requester.username);
  await fed.sendActivity(
    { identifier: requester.username },
    recipientOf(target),
    new Follow({ id: new URL(followUriOf(requester, request, true)!), actor, object: new URL(target.uri) }),
  );
}

/** follow.accepted: the local owner let a remote account follow it. */
export async function sendAcceptOf(ctx: SubscriberContext, event: EventPayloads["follow.accepted"]): Promise<void> {
  const accounts = pair(ctx, event.followerId, event.targetId);
  if (!accounts) return;
  const [follower, owner] = accounts;
  if (follower.domain === null || owner.domain !== null) return;
  const follow = getFollow(ctx.store, follower.id, owner.id);
  if (!follow) return;
  await sendAccept(await context(ctx), owner, follower, follow.uri);
}

/** follow.rejected: the local owner turned a remote account's request down. */
export async function sendRejectOf(ctx: SubscriberContext, event: EventPayloads["follow.rejected"]): Promise<void> {
  const accounts = pair(ctx, event.requesterId, event.targetId);
  if (!accounts) return;
  const [requester, owner] = accounts;
  if (requester.domain === null || owner.domain !== null) return;
  await sendReject(await context(ctx), owner, requester, event.uri ?? null);
}

/** follow.removed: a local account stopped following (or asking) a remote one, or removed a remote follower. */
export async function sendUnfollow(ctx: SubscriberContext, event: EventPayloads["follow.removed"], at: number): Promise<void> {
  const accounts = pair(ctx, event.followerId, event.targetId);
  if (!accounts) return;
  const [follower, target] = accounts;
  if (follower.domain === null && target.domain !== null) {
    // Followed again since: nothing to undo.
    if (isFollowing(ctx.store, follower.id, target.id) || getFollowRequest(ctx.store, follower.id, target.id)) return;
    const fed = await context(ctx);
    const actor = fed.getActorUri(follower.username);
    await fed.sendActivity(
      { identifier: follower.username },
      recipientOf(target),
      new Undo({
        id: new URL(`${actor.href}#follows/${target.id}/undo/${at}`),
        actor,
        object: new Follow({ id: event.uri ? new URL(event.uri) : null, actor, object: new URL(target.uri) }),
      }),
    );
  } else if (follower.domain !== null && target.domain === null) {
    if (isFollowing(ctx.store, follower.id, target.id)) return;
    await sendReject(await context(ctx), target, follower, event.uri ?? null);
  }
}
