// Removing a suspended account's data (Mastodon's DeleteAccountService with the username kept): its statuses
// and reblogs (their media, feed rows, notifications and the rest go through the usual status removal), its
// favourites and bookmarks, its follows both ways and pending requests both ways, the blocks and mutes it
// made, its notifications, lists and annual reports, its conversations, followed and featured hashtags,
// endorsements, domain blocks and thread mutes, its profile texts and images, its tokens. The account
// record stays, suspended, so its name is never taken by someone else, and so do its actor keys (as on
// Mastodon): the Delete of its actor (src/federation/account-deletion.ts) is signed with the key other
// servers know, however far the removal has got when it goes out.
//
// Run by the subscribers of `account.suspended` (after the retention; only if that very suspension still
// holds) and `account.data_deletion` (at once). In batches of BATCH rows, one transaction each; idempotent:
// a run cut short by a crash or a time-out is simply run again and goes on with what is left.
import type { Config } from "../../config.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { dropOwnedRow, ownedRows, type OwnedKeyspace } from "../../store/admin-accounts.ts";
import { removeAnnualReportsOf } from "../../store/annual-reports.ts";
import { removeUserIps } from "../../store/user-ips.ts";
import { removeConversationsOf } from "../../store/conversations.ts";
import { removeTagFollowsOf } from "../../store/tag-follows.ts";
import { removeFeaturedTagsOf } from "../../store/featured-tags.ts";
import { removeEndorsementsOf } from "../../store/endorsements.ts";
import { removeUserDomainBlocksOf } from "../../store/user-domain-blocks.ts";
import { removeThreadMutesOf } from "../../store/thread-mutes.ts";
import { listsOf, removeList } from "../../store/lists.ts";
import { removeCollectionsOf } from "../../store/collections.ts";
import { clearNotifications } from "../../store/notifications.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { removeBlock, removeFollow, removeFollowRequest, removeMute } from "../../store/relationships.ts";
import { adjustStatusCounter, getStatus } from "../../store/statuses.ts";
import { forgetFavourite, removeBookmark, removeFavouriteRows } from "../../store/statuses-interactions.ts";
import { deleteMediaFile } from "../../media/storage.ts";
import { recordEvent, type Origin } from "../events.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";
import { discardStatus } from "../statuses/delete.ts";
import { blockUriOf, followUriOf } from "../relationships/activity-uris.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export interface RemovalContext {
  store: Store;
  config: Config;
  jobs: JobEnqueuer;
}

/** Rows per transaction: small enough that a request never waits long behind one. */
const BATCH = 200;

type Row = { key: any[]; value: any };

/** What one row of each family takes, inside a write. Each must remove the row it is given. Events are of
 * origin "remote" when the account's own server deleted it, so nothing about it is sent back there. */
const STEPS: { keyspace: OwnedKeyspace; take: (ctx: RemovalContext, accountId: string, row: Row, now: number, origin: Origin) => void }[] = [
  {
    // [accountId, statusId]: statuses and reblogs; discarding drops the row and moves the counters.
    keyspace: "statusesByAccount",
    take: (ctx, accountId, row, now, origin) => {
      const status = getStatus(ctx.store, row.key[1]);
      if (!status || status.deletedAt) return;
      discardStatus(ctx.store, status, now);
      if (status.reblogOfId) {
        recordEvent(ctx, "reblog.removed", { statusId: status.id, reblogOfId: status.reblogOfId, accountId }, origin, now);
      } else {
        recordEvent(ctx, "status.deleted", { statusId: status.id, accountId }, origin, now);
      }
    },
  },
  {
    // [accountId, favouriteId] → statusId
    keyspace: "favourites",
    // Removed whole here (the notifications it caused stay hidden: their actor stays suspended).
    take: (ctx, accountId, row) => {
      const fav = { id: row.key[1], accountId, statusId: row.value as string };
      if (forgetFavourite(ctx.store, fav)) adjustStatusCounter(ctx.store, fav.statusId, "favouritesCount", -1);
      removeFavouriteRows(ctx.store, fav);
    },
  },
  {
    // [accountId, bookmarkId] → statusId
    keyspace: "bookmarks",
    take: (ctx, accountId, row) => removeBookmark(ctx.store, { id: row.key[1], accountId, statusId: row.value as string }),
  },
  {
    // [accountId, followId] → targetId: whom it follows
    keyspace: "followingIndex",
    take: (ctx, accountId, row, now, origin) => {
      const removed = removeFollow(ctx.store, accountId, row.value);
      const uri = removed && followUriOf(getAccount(ctx.store, accountId)!, removed, false);
      if (removed) recordEvent(ctx, "follow.removed", { followerId: accountId, targetId: row.value, uri }, origin, now);
    },
  },
  {
    // [accountId, followId] → followerId: who follows it
    keyspace: "followersIndex",
    take: (ctx, accountId, row, now, origin) => {
      const removed = removeFollow(ctx.store, row.value, accountId);
      const follower = removed && getAccount(ctx.store, row.value);
      if (removed) recordEvent(ctx, "follow.removed", { followerId: row.value, targetId: accountId, uri: follower ? followUriOf(follower, removed, false) : removed.uri }, origin, now);
      withdrawFollowNotifications(ctx.store, row.value, accountId);
    },
  },
  {
    // [accountId, targetId] → FollowRecord: its pending requests
    keyspace: "followRequests",
    take: (ctx, accountId, row, now, origin) => {
      const removed = removeFollowRequest(ctx.store, accountId, row.key[1]);
      const uri = removed && followUriOf(getAccount(ctx.store, accountId)!, removed, true);
      if (removed) recordEvent(ctx, "follow.removed", { followerId: accountId, targetId: row.key[1], uri }, origin, now);
      withdrawFollowNotifications(ctx.store, accountId, row.key[1]);
    },
  },
  {
    // [accountId, requestId] → requesterId: requests waiting for it
    keyspace: "followRequestsIndex",
    take: (ctx, accountId, row, now, origin) => {
      const removed = removeFollowRequest(ctx.store, row.value, accountId);
      if (removed) recordEvent(ctx, "follow.rejected", { requesterId: row.value, targetId: accountId, uri: removed.uri }, origin, now);
    },
  },
  {
    keyspace: "blocksIndex",
    take: (ctx, accountId, row, now, origin) => {
      const removed = removeBlock(ctx.store, accountId, row.value);
      const uri = removed && blockUriOf(getAccount(ctx.store, accountId)!, removed);
      if (removed) recordEvent(ctx, "block.removed", { blockerId: accountId, targetId: row.value, uri }, origin, now);
    },
  },
  {
    keyspace: "mutesIndex",
    take: (ctx, accountId, row, now, origin) => {
      if (removeMute(ctx.store, accountId, row.value)) recordEvent(ctx, "mute.removed", { accountId, targetId: row.value }, origin, now);
    },
  },
];

/** Still the suspension the removal was scheduled for (null: any suspension will do)? */
function stillDue(account: AccountRecord | undefined, suspendedAt: number | null): account is AccountRecord {
  if (!account || !account.suspended) return false;
  return suspendedAt === null || account.dataDeletedAt != null || account.suspendedAt === suspendedAt;
}

/**
 * Removes the account's data in batches. `suspendedAt`: the suspension this run was scheduled for; when the
 * account was unsuspended (or suspended again later) since, nothing is removed.
 */
export async function removeAccountData(ctx: RemovalContext, accountId: string, suspendedAt: number | null): Promise<void> {
  const { store } = ctx;
  const account = getAccount(store, accountId);
  if (!stillDue(account, suspendedAt)) return;
  const origin: Origin = account.suspensionOrigin === "remote" ? "remote" : "local";
  for (const step of STEPS) {
    for (;;) {
      const rows = ownedRows(store, step.keyspace, accountId, BATCH);
      if (rows.length === 0) break;
      const more = await store.write(() => {
        if (!stillDue(getAccount(store, accountId), suspendedAt)) return false;
        const now = Date.now();
        for (const row of rows) {
          step.take(ctx, accountId, row, now, origin);
          // Whatever the records behind it said, the row goes, so every batch makes progress.
          dropOwnedRow(store, step.keyspace, row.key);
        }
        return true;
      });
      if (!more) return;
    }
  }
  const images = await store.write(() => {
    const account = getAccount(store, accountId);
    if (!stillDue(account, suspendedAt)) return null;
    clearNotifications(store, accountId);
    removeAnnualReportsOf(store, accountId);
    removeUserIps(store, accountId);
    removeConversationsOf(store, accountId);
    removeTagFollowsOf(store, accountId);
    removeFeaturedTagsOf(store, accountId);
    removeEndorsementsOf(store, accountId);
    removeUserDomainBlocksOf(store, accountId);
    removeThreadMutesOf(store, accountId);
    removeCollectionsOf(store, accountId);
    for (const list of listsOf(store, accountId)) {
      removeList(store, list);
      recordEvent(ctx, "list.deleted", { listId: list.id });
    }
    const now = Date.now();
    for (const token of tokensOf(store, accountId)) if (!token.revokedAt) revokeToken(store, token, now);
    removeWebSessionsOf(store, accountId);
    const blank: AccountRecord = {
      ...account,
      displayName: "",
      note: "",
      noteSource: "",
      fields: [],
      avatarUrl: null,
      avatarDescription: "",
      headerUrl: null,
      headerDescription: "",
      dataDeletedAt: account.dataDeletedAt ?? now,
    };
    putAccount(store, blank);
    recordEvent(ctx, "account.updated", { accountId });
    return [account.avatarUrl, account.headerUrl];
  });
  // Files last: a run cut short before this point still knows them from the record it did not blank yet.
  if (images) await Promise.all(images.map((path) => deleteMediaFile(ctx.config, path)));
}
