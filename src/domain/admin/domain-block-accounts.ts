// An instance domain block applied to the accounts of that domain already known (Mastodon's BlockDomainService):
// `suspend` suspends them (hidden everywhere at once) and ends their follows and follow requests both ways;
// `silence` silences them. Lifting or easing the block restores what the block did, and only that: an account
// staff suspended or silenced on its own stays so (`byDomainBlock` remembers which). Their data is kept, so a
// lifted block brings the accounts back (without their follows). Run by `moderation.apply_domain_block`;
// idempotent: each account is brought to what the block now says.
import type { SubscriberContext } from "../events.ts";
import { recordEvent } from "../events.ts";
import { getAccount, putAccount, remoteAccountIdsWhere } from "../../store/accounts.ts";
import {
  followerIdsOf, followingIdsOf, removeFollow, removeFollowRequest, requestedIdsOf, requesterIdsOf,
} from "../../store/relationships.ts";
import { domainBlockFor } from "./domain-blocks.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** Accounts changed per transaction. */
const BATCH = 100;

type Ctx = Pick<SubscriberContext, "store" | "jobs">;

/** The host name of an account's domain ("example.com:8443" → "example.com"). */
function hostOf(domain: string): string {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return domain.toLowerCase();
  }
}

export async function applyDomainBlockToAccounts(ctx: Ctx, domain: string): Promise<void> {
  const ids = remoteAccountIdsWhere(ctx.store, (accountDomain) => {
    const host = hostOf(accountDomain);
    return host === domain || host.endsWith(`.${domain}`);
  });
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    await ctx.store.write(() => batch.forEach((id) => applyTo(ctx, id, Date.now())));
  }
}

/** Inside a write: the account as its domain's block (or its absence) now says. */
function applyTo(ctx: Ctx, accountId: string, now: number): void {
  const account = getAccount(ctx.store, accountId);
  if (!account || account.domain === null || account.dataDeletedAt) return;
  const block = domainBlockFor(ctx.store, hostOf(account.domain));
  const suspend = block?.severity === "suspend";
  const silence = block?.severity === "silence";
  const by = { ...(account.byDomainBlock ?? { suspended: false, silenced: false }) };
  let next: AccountRecord = account;
  if (suspend) {
    // Also for an account staff suspended already: nothing may follow across a suspended domain.
    endFollows(ctx, account.id);
    if (!account.suspended) {
      next = { ...next, suspended: true, suspendedAt: block!.createdAt, suspensionOrigin: "local" };
      by.suspended = true;
    }
  } else if (!suspend && by.suspended) {
    if (account.suspended) next = { ...next, suspended: false, suspendedAt: null, suspensionOrigin: null };
    by.suspended = false;
  }
  if (silence && !account.silenced) {
    next = { ...next, silenced: true, silencedAt: now };
    by.silenced = true;
  } else if (!silence && by.silenced) {
    if (account.silenced) next = { ...next, silenced: false, silencedAt: null };
    by.silenced = false;
  }
  if (next === account && !account.byDomainBlock === !(by.suspended || by.silenced)) return;
  const { byDomainBlock: _previous, ...rest } = next;
  putAccount(ctx.store, by.suspended || by.silenced ? { ...rest, byDomainBlock: by } : rest);
  recordEvent(ctx, "account.updated", { accountId: account.id }, "remote", now);
}

/** Inside a write: every follow and follow request between the account and local ones ends (remote origin:
 * nothing is sent to a server that is cut off anyway). */
function endFollows(ctx: Ctx, accountId: string): void {
  const { store } = ctx;
  for (const followerId of [...followerIdsOf(store, accountId)]) {
    if (removeFollow(store, followerId, accountId)) recordEvent(ctx, "follow.removed", { followerId, targetId: accountId }, "remote");
  }
  for (const targetId of [...followingIdsOf(store, accountId)]) {
    if (removeFollow(store, accountId, targetId)) recordEvent(ctx, "follow.removed", { followerId: accountId, targetId }, "remote");
  }
  for (const targetId of [...requestedIdsOf(store, accountId)]) removeFollowRequest(store, accountId, targetId);
  for (const requesterId of [...requesterIdsOf(store, accountId)]) removeFollowRequest(store, requesterId, accountId);
}
