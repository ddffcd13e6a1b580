// The shapes stored in LMDB. Times are unix milliseconds. `v` is the record's schema version.

export type RoleName = "Owner" | "Admin" | "Moderator" | "User";

export interface ProfileField {
  name: string;
  value: string;
  verifiedAt: number | null;
}

/** A custom emoji of another server, as its Note or actor tags it (federation/note-emojis.ts). */
export interface RemoteEmoji {
  shortcode: string;
  url: string;
  staticUrl: string;
  /** The image's remote URL when `url` and `staticUrl` are the paths of its copy here (domain/media/remote-emojis.ts). */
  remoteUrl?: string;
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

export interface AppRecord {
  v: 1;
  id: string;
  name: string;
  website: string | null;
  redirectUris: string[];
  scopes: string[];
  clientId: string;
  /** sha256 of the secret; the secret itself is shown once, at creation */
  clientSecretHash: string;
  createdAt: number;
}

export interface TokenRecord {
  v: 1;
  id: string;
  hash: string;
  appId: string;
  /** null for app (client_credentials) tokens */
  accountId: string | null;
  scopes: string[];
  createdAt: number;
  revokedAt: number | null;
}

export interface AuthorizationCodeRecord {
  v: 1;
  hash: string;
  appId: string;
  accountId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  usedAt: number | null;
  /** hash of the token the code was exchanged for: revoked if the code is presented again */
  tokenHash?: string | null;
}

export type Visibility = "public" | "unlisted" | "private" | "direct";

export interface StatusRecord {
  v: 1;
  id: string;
  accountId: string;
  uri: string;
  url: string | null;
  local: boolean;
  /** plain source text as typed (local statuses) */
  text: string;
  /** rendered HTML */
  content: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: Visibility;
  language: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  /** Remote statuses: the `inReplyTo` of a reply whose parent was not known when it was stored, until the
   * thread fetch (federation/thread-fetch.ts) links it. */
  inReplyToUri?: string;
  /** set on a reblog (a wrapper status with empty content) */
  reblogOfId: string | null;
  /** OAuth app that posted it (null for remote statuses) */
  applicationId: string | null;
  /** mentioned account ids */
  mentionIds: string[];
  /** lower-case hashtag names */
  tags: string[];
  mediaIds: string[];
  /** It has a poll (store/polls.ts, keyed by the status id); absent on statuses from before polls. */
  hasPoll?: boolean;
  /** A remote status's custom emojis, as its Note tags them (absent: none; local ones are looked up by shortcode). */
  emojis?: RemoteEmoji[];
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  /** Accepted quotes of it (store/quotes.ts); absent: none yet */
  quotesCount?: number;
  /** Who may quote it (domain/quotes/policy.ts); absent: nobody (statuses from before quote posts) */
  quotePolicy?: QuotePolicy;
  /** The status it quotes, and the quote's state (docs/statuses.md#quotes); absent: it quotes nothing */
  quote?: QuoteOfStatus;
  createdAt: number;
  editedAt: number | null;
  /** set when deleted: from then on it is gone from every read path; the rest of removal is a job */
  deletedAt: number | null;
}

/** Who may quote a status: `source[quote_policy]` and `quote_approval_policy` of the API. */
export type QuotePolicy = "public" | "followers" | "nobody";

/** A quote as stored on the quoting status: Mastodon's Quote (pending, rejected: remote quotes, later). */
export interface QuoteOfStatus {
  statusId: string;
  /** The quoted status's author (who may revoke it, and who may see a private quote of theirs). */
  accountId: string;
  state: "pending" | "accepted" | "rejected" | "revoked";
  /** FEP-044f: the QuoteAuthorization's id once accepted by another server (or of ours, for a remote quote). */
  authorizationUri?: string;
}

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

export type NotificationType =
  | "mention" | "status" | "reblog" | "follow" | "follow_request" | "favourite" | "poll" | "update"
  | "admin.sign_up" | "admin.report" | "annual_report" | "quote" | "quoted_update" | "move";

export interface NotificationRecord {
  v: 1;
  id: string;
  type: NotificationType;
  /** who receives it */
  recipientId: string;
  /** who caused it */
  fromAccountId: string;
  statusId: string | null;
  /** admin.report: the report it announces (store/reports.ts); absent on every other type */
  reportId?: string | null;
  /** annual_report: the year of the report it announces (store/annual-reports.ts); absent on every other type */
  annualReportYear?: number;
  createdAt: number;
  /** Held back by the recipient's notification policy (a notification request); absent when not */
  filtered?: true;
  /** Groupable types: the hour (Unix time / 3600) its group started, which it joined (domain/notifications/group-key.ts) */
  groupBucket?: number;
}
