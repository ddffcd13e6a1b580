// Accounts and users as stored, and what hangs off a profile.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.
import type { RemoteEmoji } from "./media.ts";
import type { QuotePolicy } from "./statuses.ts";

export type RoleName = "Owner" | "Admin" | "Moderator" | "User";

export interface ProfileField {
  name: string;
  value: string;
  verifiedAt: number | null;
}

export interface AccountRecord {
  v: 1;
  id: string;
  username: string;
  /** null for local accounts */
  domain: string | null;
  displayName: string;
  /** HTML bio as shown to clients */
  note: string;
  /** Plain-text bio as the owner typed it (local accounts) */
  noteSource: string;
  fields: ProfileField[];
  /** A remote account's custom emojis in its name, bio and fields (absent: none). */
  emojis?: RemoteEmoji[];
  locked: boolean;
  bot: boolean;
  group: boolean;
  discoverable: boolean;
  indexable: boolean;
  hideCollections: boolean;
  /** Websites allowed to credit this account as author (source.attribution_domains); absent on older records. */
  attributionDomains?: string[];
  avatarUrl: string | null;
  avatarDescription: string;
  headerUrl: string | null;
  headerDescription: string;
  createdAt: number;
  /** ActivityPub actor and endpoints (local ones are derived from the instance URL at creation) */
  uri: string;
  url: string;
  inbox: string;
  sharedInbox: string | null;
  outbox: string;
  followersUrl: string;
  followingUrl: string;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: number | null;
  suspended: boolean;
  silenced: boolean;
  memorial: boolean;
  /** Moderation (src/domain/admin/, docs/admin.md); absent on records written before it, read as unset. */
  suspendedAt?: number | null;
  /** Who suspended it: this server's staff, or (with federation) its own server */
  suspensionOrigin?: "local" | "remote" | null;
  /** Suspended or silenced by an instance domain block (not by staff on this account): lifted with the block. */
  byDomainBlock?: { suspended: boolean; silenced: boolean };
  silencedAt?: number | null;
  /** Staff made its media sensitive: other viewers see its statuses as sensitive */
  sensitized?: boolean;
  sensitizedAt?: number | null;
  /** Its data was deleted for good (DELETE /api/v1/admin/accounts/:id): it stays suspended, its name reserved */
  dataDeletedAt?: number | null;
  /** Local accounts: UserRecord.role mirrored here so profiles show their role badge without a user read
   * (domain/accounts keeps both in step). Absent means "User". */
  role?: RoleName;
  /** Account migration (docs/federation.md "Moving accounts"): the actor URIs this account is also known as
   * (local: its aliases, set in /settings/aliases; remote: its actor's `alsoKnownAs`). Absent: none. */
  alsoKnownAs?: string[];
  /** The account it moved to (a `Move` sent or received); absent or null: not moved. */
  movedToAccountId?: string | null;
  /** That account's actor URI (its `movedTo`; URIs never change). */
  movedToUri?: string | null;
  /** When it last moved (ms): the cool-down between moves counts from it. */
  movedAt?: number | null;
  /** Remote accounts: the `totalItems` of their outbox, followers and following collections when last fetched
   * (federation/account-completion.ts); the counts shown are never below the stored counters. */
  collectionCounts?: { statuses: number | null; followers: number | null; following: number | null };
  /** Remote accounts: their avatar and header on their server, while avatarUrl/headerUrl may point to the copy
   * kept here (domain/media/remote-cache.ts), and when those copies were fetched. */
  avatarRemoteUrl?: string | null;
  headerRemoteUrl?: string | null;
  imagesCachedAt?: number;
}

/** An actor's key pair, kept apart from AccountRecord: it is needed only to sign and verify federation
 * requests, while the account record is read on nearly every API call. */
export interface AccountKeysRecord {
  v: 1;
  publicKeyPem: string;
  /** local accounts only */
  privateKeyPem: string | null;
}

export interface UserRecord {
  v: 1;
  accountId: string;
  email: string;
  passwordHash: string;
  role: RoleName;
  approved: boolean;
  confirmedAt: number | null;
  disabled: boolean;
  locale: string;
  /** reason given at sign-up when approval is required */
  reason: string | null;
  createdAt: number;
  createdByAppId: string | null;
  /** posting defaults (CredentialAccount.source) */
  privacy: "public" | "unlisted" | "private" | "direct";
  sensitive: boolean;
  language: string | null;
  /** Who may quote new posts (source[quote_policy]); absent: public, Mastodon's default */
  quotePolicy?: QuotePolicy;
  /** A new address asked for in /settings/email, in force once its confirmation link is used (Mastodon's unconfirmed_email) */
  unconfirmedEmail?: string | null;
}

export type AccountCounts = Pick<AccountRecord, "statusesCount" | "followersCount" | "followingCount">;

export interface EndorsementRecord {
  v: 1;
  /** snowflake: the endorsements list's cursor */
  id: string;
  createdAt: number;
}

export interface FeaturedTagRecord {
  v: 1;
  id: string;
  accountId: string;
  tag: string;
  /** the author's public and unlisted statuses with the tag */
  statusesCount: number;
  /** when the newest of them was posted (ms); null with none */
  lastStatusAt: number | null;
  createdAt: number;
}

export interface FeaturedRecord {
  v: 1;
  accountId: string;
  /** when the operator picked it: picks are suggested oldest first */
  addedAt: number;
}

export type ImportType = "following" | "blocking" | "muting";

export type ImportMode = "merge" | "overwrite";

export interface ImportRecord {
  v: 1;
  id: string;
  accountId: string;
  type: ImportType;
  mode: ImportMode;
  total: number;
  processed: number;
  failures: number;
  /** overwrite: the relationships missing from the file have been removed */
  cleared: boolean;
  createdAt: number;
  finishedAt: number | null;
}
