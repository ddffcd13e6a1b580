// What each timeline shows a viewer. The REST timelines and the streams ask these same functions, and both
// ask them at the moment of reading or sending: a feed row is only a candidate. Visibility itself is
// decided by policy/visibility.ts (deleted, private, direct, blocked by the author); these add the
// viewer's own choices (blocks, mutes, follows and their options, exclusive lists) and each timeline's rules.
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { cachedAccount } from "../accounts/read.ts";
import { getList, isMember, ownerListsContaining } from "../../store/lists.ts";
import { getFollow, isBlocking } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus, hiddenByViewer, viewerHides } from "../policy/visibility.ts";
import { statusHider } from "../filters/match.ts";
import { followsAnyTag } from "../../store/tag-follows.ts";
import { tagBringsHome } from "../tags/home.ts";
import { recordingReads } from "../../store/versions.ts";
import { viewerFacts, ViewerFacts } from "./viewer-facts.ts";
import type { FilterContext } from "../../model/filters.ts";
import type { FollowRecord, ListRecord } from "../../model/relationships.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/**
 * One viewer's reading of timelines. The answers that depend only on what the viewer sees are kept across
 * pages (viewer-facts.ts); those about the authors' own accounts for the length of a page or event.
 */
export class TimelineViewer {
  private readonly facts: ViewerFacts;
  private listed = new Map<string, boolean>();
  private suspended = new Map<string, boolean>();
  private hiders = new Map<FilterContext, ((status: StatusRecord) => boolean) | null>();

  constructor(
    readonly store: Store,
    readonly viewerId: string | null,
  ) {
    this.facts = viewerId ? viewerFacts(store, viewerId) : new ViewerFacts();
  }

  follow(authorId: string): FollowRecord | null {
    if (!this.viewerId) return null;
    let hit = this.facts.follows.get(authorId);
    if (hit === undefined) {
      hit = getFollow(this.store, this.viewerId, authorId) ?? null;
      this.facts.follows.set(authorId, hit);
    }
    return hit;
  }

  /** Is the author on one of the viewer's exclusive lists? */
  exclusive(authorId: string): boolean {
    const viewerId = this.viewerId;
    if (!viewerId) return false;
    let hit = this.facts.exclusives.get(authorId);
    if (hit === undefined) {
      hit = ownerListsContaining(this.store, viewerId, authorId).some((listId) => getList(this.store, viewerId, listId)?.exclusive);
      this.facts.exclusives.set(authorId, hit);
    }
    return hit;
  }

  /** Public and hashtag timelines leave out suspended authors, and silenced ones unless the viewer follows them. */
  listedAuthor(authorId: string): boolean {
    let hit = this.listed.get(authorId);
    if (hit === undefined) {
      const account = getAccount(this.store, authorId);
      hit = !!account && !account.suspended && (!account.silenced || authorId === this.viewerId || this.follow(authorId) !== null);
      this.listed.set(authorId, hit);
    }
    return hit;
  }

  /** Does the viewer block or mute this account? */
  hides(accountId: string): boolean {
    const viewerId = this.viewerId;
    if (!viewerId) return false;
    let hit = this.facts.hidden.get(accountId);
    if (hit === undefined) {
      // A mute with an end decides the answer only until then (its read notes the end).
      const { result, reads } = recordingReads(() => viewerHides(this.store, viewerId, accountId));
      this.facts.hidden.set(accountId, (hit = result));
      if (reads.until < this.facts.until) this.facts.until = reads.until;
    }
    return hit;
  }

  /** Does this account block the viewer? */
  blocksViewer(accountId: string): boolean {
    const viewerId = this.viewerId;
    if (!viewerId) return false;
    let hit = this.facts.blockers.get(accountId);
    if (hit === undefined) this.facts.blockers.set(accountId, (hit = isBlocking(this.store, accountId, viewerId)));
    return hit;
  }

  /** Is this author suspended (everything of theirs hidden)? */
  authorSuspended(accountId: string): boolean {
    let hit = this.suspended.get(accountId);
    if (hit === undefined) this.suspended.set(accountId, (hit = cachedAccount(this.store, accountId)?.suspended === true));
    return hit;
  }

  /** Does the viewer follow any hashtag (so that authors it does not follow may appear in its home)? */
  followsTags(): boolean {
    if (!this.viewerId) return false;
    return (this.facts.tagFollower ??= followsAnyTag(this.store, this.viewerId));
  }

  /** The cheap part of the home rule, from a feed row alone: is this author's content wanted at all? */
  homeAuthor(authorId: string): boolean {
    const viewerId = this.viewerId;
    if (!viewerId) return false;
    if (authorId === viewerId) return true;
    if (this.hides(authorId)) return false;
    return (!!this.follow(authorId) && !this.exclusive(authorId)) || this.followsTags();
  }

  /**
   * Home and lists also leave out statuses that mention an account the viewer blocks or mutes (and reblogs
   * of such statuses), as Mastodon's home filter does.
   */
  mentionsHidden(status: StatusRecord): boolean {
    const viewerId = this.viewerId;
    if (!viewerId) return false;
    const original = status.reblogOfId ? getStatus(this.store, status.reblogOfId) : undefined;
    const mentioned = original ? [...status.mentionIds, ...original.mentionIds] : status.mentionIds;
    return mentioned.some((id) => this.hides(id));
  }

  /**
   * Does one of the viewer's `hide` filters remove this status from a timeline or stream of `context`? The
   * filters are compiled once per viewer (filters/match.ts); with no hide filter there, this reads nothing.
   */
  filteredOut(status: StatusRecord, context: FilterContext): boolean {
    let hider = this.hiders.get(context);
    if (hider === undefined) this.hiders.set(context, (hider = statusHider(this.store, this.viewerId, context)));
    return !!hider && hider(status);
  }

  /** Visible to the viewer and not hidden by their blocks and mutes (also for a reblog's original). */
  sees(status: StatusRecord): boolean {
    return (
      canSeeStatus(this.store, this.viewerId, status, (id) => this.blocksViewer(id), (id) => this.authorSuspended(id)) &&
      !hiddenByViewer(this.store, this.viewerId, status, (id) => this.hides(id))
    );
  }
}

/**
 * Home: the viewer's own statuses and those of accounts they follow (reblogs only while the follow shows
 * them; the follow's languages, when set, narrow ordinary statuses), minus exclusive-list members and
 * statuses mentioning accounts the viewer blocks or mutes, and statuses the viewer's hide filters remove.
 */
export function homeShows(viewer: TimelineViewer, status: StatusRecord): boolean {
  if (!viewer.viewerId || !viewer.sees(status)) return false;
  if (status.accountId === viewer.viewerId) return true;
  const follow = viewer.follow(status.accountId);
  // A followed hashtag brings public statuses of authors the viewer does not follow (tags/home.ts).
  if (!follow) return tagBringsHome(viewer.store, viewer.viewerId, status, (id) => viewer.hides(id)) && !viewer.filteredOut(status, "home");
  if (viewer.exclusive(status.accountId) || viewer.mentionsHidden(status)) return false;
  if (status.reblogOfId && !follow.reblogs) return false;
  if (!status.reblogOfId && follow.languages && status.language && !follow.languages.includes(status.language)) return false;
  return !viewer.filteredOut(status, "home");
}

/**
 * A list: its members' statuses while the owner follows them, and replies to others per the list's
 * replies_policy (followed: replies to anyone the owner follows; list: to members; none: no replies); the
 * owner's hide filters of the home context apply (lists are part of home, as on Mastodon).
 */
export function listShows(viewer: TimelineViewer, list: ListRecord, status: StatusRecord): boolean {
  const ownerId = list.accountId;
  if (viewer.viewerId !== ownerId || !viewer.sees(status)) return false;
  if (!isMember(viewer.store, list.id, status.accountId)) return false;
  if (status.accountId !== ownerId) {
    const follow = viewer.follow(status.accountId);
    if (!follow || (status.reblogOfId && !follow.reblogs) || viewer.mentionsHidden(status)) return false;
  }
  return listTakesReply(viewer, list, status) && !viewer.filteredOut(status, "home");
}

function listTakesReply(viewer: TimelineViewer, list: ListRecord, status: StatusRecord): boolean {
  const repliedTo = status.inReplyToAccountId;
  if (!status.inReplyToId || !repliedTo || repliedTo === status.accountId || repliedTo === list.accountId) return true;
  switch (list.repliesPolicy) {
    case "none":
      return false;
    case "list":
      return isMember(viewer.store, list.id, repliedTo);
    case "followed":
      return viewer.follow(repliedTo) !== null;
  }
}

export type Origin = "all" | "local" | "remote";

export interface PublicFilter {
  origin: Origin;
  onlyMedia: boolean;
}

function fromOrigin(status: StatusRecord, origin: Origin): boolean {
  return origin === "all" || (origin === "local") === status.local;
}

/**
 * The public timeline: public statuses only; no reblogs, no replies to others (replies to oneself stay);
 * a signed-in viewer's hide filters of the public context apply.
 */
export function publicShows(viewer: TimelineViewer, status: StatusRecord, filter: PublicFilter): boolean {
  if (status.reblogOfId || status.visibility !== "public") return false;
  if (status.inReplyToId && status.inReplyToAccountId !== status.accountId) return false;
  if (!fromOrigin(status, filter.origin) || (filter.onlyMedia && status.mediaIds.length === 0)) return false;
  return viewer.listedAuthor(status.accountId) && viewer.sees(status) && !viewer.filteredOut(status, "public");
}

export interface TagFilter extends PublicFilter {
  /** the hashtag and any[]: at least one of them */
  anyOf: string[];
  /** all[]: every one of them */
  allOf: string[];
  /** none[]: none of them */
  noneOf: string[];
}

/** A hashtag timeline: public statuses carrying the tags asked for (replies included, reblogs not); hide filters as public. */
export function tagShows(viewer: TimelineViewer, status: StatusRecord, filter: TagFilter): boolean {
  if (status.reblogOfId || status.visibility !== "public") return false;
  const tags = status.tags;
  if (!filter.anyOf.some((t) => tags.includes(t)) || !filter.allOf.every((t) => tags.includes(t))) return false;
  if (filter.noneOf.some((t) => tags.includes(t))) return false;
  if (!fromOrigin(status, filter.origin) || (filter.onlyMedia && status.mediaIds.length === 0)) return false;
  return viewer.listedAuthor(status.accountId) && viewer.sees(status) && !viewer.filteredOut(status, "public");
}
