// The `account.moved` subscriber (Mastodon's MoveWorker and UnfollowFollowWorker): an account moved, sent by
// us (migration.ts) or received in a `Move` (federation/moves.ts). Each local follower of the old account
// follows the new one with the same options (a request where it is locked, unless it is local: its owner
// asked for the move by listing the alias, as Mastodon's `bypass_locked`), stops following the old one, and
// gets a `move` notification. Followers go in batches of MOVE_BATCH, in id order; each batch ends by
// recording the event again with the last id done, so a big audience is many short jobs, each retried alone.
// A follower the new account blocks (or who blocks it) keeps following the old one, as on Mastodon.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { getAccount } from "../../store/accounts.ts";
import { followerIdsOf, getFollow } from "../../store/relationships.ts";
import type { DomainEvent, SubscriberContext } from "../events.ts";
import { recordEvent } from "../events.ts";
import { notify } from "../notifications/notify.ts";
import { follow, unfollow } from "../relationships/follow.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** Followers carried over per job. */
export const MOVE_BATCH = 200;

/** The local followers of `accountId` after `after` (ids in order), at most `limit`. */
function localFollowersAfter(deps: Deps, accountId: string, after: string | undefined, limit: number): AccountRecord[] {
  const ids = [...followerIdsOf(deps.store, accountId)].filter((id) => after === undefined || id > after).sort();
  const out: AccountRecord[] = [];
  for (const id of ids) {
    const follower = getAccount(deps.store, id);
    if (follower && follower.domain === null && !follower.suspended) out.push(follower);
    if (out.length === limit) break;
  }
  return out;
}

async function carryOver(deps: Deps, follower: AccountRecord, from: AccountRecord, to: AccountRecord, at: number): Promise<void> {
  const old = getFollow(deps.store, follower.id, from.id);
  if (!old || follower.id === to.id) return;
  try {
    await follow(deps, follower, to, { reblogs: old.reblogs, notify: old.notify, languages: old.languages, bypassLocked: to.domain === null });
  } catch (error) {
    if (error instanceof NotPermitted) return;
    throw error;
  }
  await deps.store.write(() => notify(deps, { type: "move", recipientId: follower.id, fromAccountId: from.id }, at));
  await unfollow(deps, follower, from);
}

export async function moveFollowers(ctx: SubscriberContext, event: DomainEvent<"account.moved">): Promise<void> {
  const deps = ctx as unknown as Deps;
  const { accountId, targetId, after } = event.payload;
  const from = getAccount(ctx.store, accountId);
  const to = getAccount(ctx.store, targetId);
  // Cancelled or redirected elsewhere since: this move is over.
  if (!from || !to || from.movedToAccountId !== to.id || to.suspended) return;
  const batch = localFollowersAfter(deps, from.id, after, MOVE_BATCH);
  for (const follower of batch) await carryOver(deps, follower, from, to, event.at);
  if (batch.length === MOVE_BATCH) {
    const last = batch[batch.length - 1]!.id;
    await ctx.store.write(() => recordEvent(ctx, "account.moved", { accountId, targetId, after: last }, event.origin, event.at));
  }
}
