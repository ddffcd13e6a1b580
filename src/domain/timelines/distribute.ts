// Fan-out on write. The write that creates a status (or reblog) indexes it in the public and hashtag feeds
// and its author's home, and records `status.created` (or `reblog.created`); that event's fan-out subscriber
// (fan-out.ts) puts it into the home feed of every local follower and into the lists it belongs to. The
// rules applied here decide what enters a feed; policy.ts decides again at read time.
import type { Deps } from "../../deps.ts";
import type { Store } from "../../store/db.ts";
import { blocksAnyone, getFollow, hasNotifyingFollowers, isFollowing } from "../../store/relationships.ts";
import { cachedAccount } from "../accounts/read.ts";
import {
  homeShowsRecently, isLocalAccountId, putHomeEntry, putPublicEntry, tagFeed, type FeedEntry, type PublicFeed,
} from "../../store/timelines.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { recordEvent, type Origin } from "../events.ts";
import { remoteFollowersOf } from "./followers.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Rows written per transaction: big enough to amortise the commit, small enough not to stall other writers. */
export const FAN_OUT_BATCH = 2000;
/** A reblog of a status that is among this many newest rows of a home feed is not added again (Mastodon's). */
export const REBLOG_FALLOFF = 40;

/** The home or list feed row of a status. */
export const entryOf = (status: StatusRecord): FeedEntry => ({ authorId: status.accountId, reblogOfId: status.reblogOfId });

/**
 * The public feeds a status belongs to: public ones that are not reblogs nor replies to others, and the
 * media-only ones too when it carries media (so only_media reads an index instead of filtering the public one).
 */
export function publicFeedsOf(status: StatusRecord): PublicFeed[] {
  if (status.visibility !== "public" || status.reblogOfId) return [];
  const feeds: PublicFeed[] = status.tags.map(tagFeed);
  if (!status.inReplyToId || status.inReplyToAccountId === status.accountId) {
    feeds.push("public", status.local ? "public:local" : "public:remote");
    if (status.mediaIds.length > 0) feeds.push("media", status.local ? "media:local" : "media:remote");
  }
  return feeds;
}

/**
 * Inside the write that creates `status`: the public and hashtag feeds, the author's own home (so the author
 * sees it at once), and its event, whose subscribers fan it out (`timelines.fan_out`) and fetch its card.
 * Remote statuses come through here too (their author has no home). `firstLink`: where its card comes from.
 */
export function onStatusCreated(deps: Deps, status: StatusRecord, firstLink: string | null = null, origin: Origin = "local"): void {
  const { store } = deps;
  putPublicEntries(store, status);
  if (isLocalAccountId(store, status.accountId)) addToHome(store, status.accountId, status);
  if (status.reblogOfId) {
    recordEvent(deps, "reblog.created", { statusId: status.id, reblogOfId: status.reblogOfId, accountId: status.accountId }, origin, status.createdAt);
  } else {
    const has = {
      tags: status.tags.length > 0,
      direct: status.visibility === "direct",
      pendingQuote: status.quote?.state === "pending",
      notifyingFollowers: hasNotifyingFollowers(store, status.accountId),
      remoteAudience: status.local && hasRemoteAudience(store, status),
    };
    recordEvent(deps, "status.created", { statusId: status.id, accountId: status.accountId, firstLink, has }, origin, status.createdAt);
  }
}

/** Does anyone on another server follow its author, or is mentioned, replied to or quoted by it? */
function hasRemoteAudience(store: Store, status: StatusRecord): boolean {
  const remote = (id: string | null | undefined) => !!id && !isLocalAccountId(store, id);
  return (
    remoteFollowersOf(store, status.accountId).length > 0 ||
    status.mentionIds.some(remote) ||
    remote(status.inReplyToAccountId) ||
    remote(status.quote?.accountId)
  );
}

/** Inside a write: the status's rows in the public feeds it belongs to. */
export function putPublicEntries(store: Store, status: StatusRecord): void {
  for (const feed of publicFeedsOf(status)) putPublicEntry(store, feed, status.id, { accountId: status.accountId, local: status.local });
}

/** Inside a write: adds the row unless it would repeat a reblog near the top. True when added. */
export function addToHome(store: Store, viewerId: string, status: StatusRecord): boolean {
  if (status.reblogOfId && homeShowsRecently(store, viewerId, status.reblogOfId, REBLOG_FALLOFF)) return false;
  putHomeEntry(store, viewerId, status.id, entryOf(status));
  return true;
}

/**
 * Does a follower's home take this status (Mastodon's fan-out rules)? Direct statuses only when they are
 * mentioned; replies to others only when they follow the account replied to (or are it); reblogs only
 * while the follow shows reblogs; and nothing they may not see.
 */
export function wantsInHome(store: Store, status: StatusRecord, followerId: string, author?: AuthorFacts): boolean {
  if (status.visibility === "direct" && !status.mentionIds.includes(followerId)) return false;
  const repliedTo = status.inReplyToAccountId;
  if (status.inReplyToId && repliedTo && repliedTo !== status.accountId && repliedTo !== followerId && !isFollowing(store, followerId, repliedTo)) {
    return false;
  }
  if (status.reblogOfId && !getFollow(store, followerId, status.accountId)?.reblogs) return false;
  if (author) return canSeeStatus(store, followerId, status, author.blocks ? undefined : () => false, () => author.suspended);
  return canSeeStatus(store, followerId, status);
}

/** What the visibility rules ask of a status's author, asked once for all its followers (fan-out). */
export interface AuthorFacts {
  suspended: boolean;
  /** Blocks anyone at all (else no follower needs asking). */
  blocks: boolean;
}

/**
 * The author facts of `status` for wantsInHome, or undefined for a reblog: the rules ask the same of the
 * author of the status it wraps, who is someone else.
 */
export function authorFactsOf(store: Store, status: StatusRecord): AuthorFacts | undefined {
  if (status.reblogOfId) return undefined;
  return { suspended: cachedAccount(store, status.accountId)?.suspended === true, blocks: blocksAnyone(store, status.accountId) };
}
