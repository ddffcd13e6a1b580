// Follows, blocks, mutes, lists and the other edges between accounts.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

export interface FollowRecord {
  v: 1;
  /** snowflake; cursor for followers/following (and follow_requests for requests) */
  id: string;
  accountId: string;
  targetId: string;
  reblogs: boolean;
  notify: boolean;
  languages: string[] | null;
  createdAt: number;
  /** ActivityPub id of the Follow activity: the remote's for a remote follower, ours
   * (domain/relationships/activity-uris.ts) for a local one; null on records from before (local followers). */
  uri: string | null;
}

export interface BlockRecord {
  v: 1;
  id: string;
  accountId: string;
  targetId: string;
  createdAt: number;
  /** ActivityPub id of the Block (domain/relationships/activity-uris.ts); absent on records from before. */
  uri?: string;
}

export interface MuteRecord {
  v: 1;
  id: string;
  accountId: string;
  targetId: string;
  notifications: boolean;
  /** null = forever */
  expiresAt: number | null;
  createdAt: number;
}

/** Every record that decides how `viewerId` relates to `targetId` (the Relationship entity). */
export interface RelationshipFacts {
  viewerId: string;
  targetId: string;
  following: FollowRecord | undefined;
  followedBy: boolean;
  requested: FollowRecord | undefined;
  requestedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  mute: MuteRecord | undefined;
  note: string;
  /** endorsed while followed (store/endorsements.ts) */
  endorsed: boolean;
  /** the viewer blocks the target's domain (store/user-domain-blocks.ts) */
  domainBlocking: boolean;
}

export interface UserDomainBlockRecord {
  v: 1;
  id: string;
  createdAt: number;
}

export type RepliesPolicy = "followed" | "list" | "none";

export interface ListRecord {
  v: 1;
  id: string;
  accountId: string;
  title: string;
  repliesPolicy: RepliesPolicy;
  /** members' statuses are left out of the owner's home timeline */
  exclusive: boolean;
  createdAt: number;
}

export interface TagFollowRecord {
  v: 1;
  /** snowflake: the followed_tags cursor */
  id: string;
  accountId: string;
  tag: string;
  createdAt: number;
}
