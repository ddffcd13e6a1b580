// Every keyspace (a named LMDB sub-database) in one place. Keys are arrays that sort element by element:
// owner first, time-sortable id last, so Mastodon's max_id/since_id/min_id paging is one range scan.
// Ids inside keys are the fixed-width decimal strings of lib/ids.ts.

import { HOME_ROWS_OPTIONS } from "./home-rows.ts";
import { SEARCH_POSTINGS_OPTIONS } from "./search-rows.ts";
import { STATUSES_OPTIONS } from "./status-compression.ts";
import { PACKED_ID_OPTIONS } from "./id-keys.ts";

export const KEYSPACES = {
  /** "schema_version" → number; other instance-wide facts (e.g. "registrations") → value */
  meta: "meta",
  /** accountId → AccountRecord (local and remote) */
  accounts: "accounts",
  /** [usernameLower, domain | ""] → accountId */
  accountsByAcct: "accounts_by_acct",
  /** accountId → AccountKeysRecord (the actor's key pair) */
  accountKeys: "account_keys",
  /** actor uri → accountId (remote and local) */
  accountsByUri: "accounts_by_uri",
  /** accountId → UserRecord (local sign-in: e-mail, password, role, approval) */
  users: "users",
  /** emailLower → accountId */
  usersByEmail: "users_by_email",
  /** [accountId, ip] → last used (ms): the addresses a local user signed up or signed in from (src/store/user-ips.ts) */
  userIps: "user_ips",
  /** appId → AppRecord */
  apps: "apps",
  /** clientId → appId */
  appsByClientId: "apps_by_client_id",
  /** The instance statistics' figures, kept by the writes of users, accounts and tokens (store/member-figures.ts) */
  memberFigures: "member_figures",
  /** sha256(token) → TokenRecord */
  tokens: "tokens",
  /** [accountId | appId, tokenHash] → true: lets revocation and account changes find tokens */
  tokensByOwner: "tokens_by_owner",
  /** sha256(code) → AuthorizationCodeRecord */
  authCodes: "auth_codes",
  /** jobs: [lane, runAt (ms), jobId] → JobRecord (src/jobs/lanes.ts) */
  jobs: "jobs",
  /** jobId → ClaimedJob: taken by a worker, released on restart */
  jobsClaimed: "jobs_claimed",
  /** jobId → DeadJob: gave up after the attempt limit */
  jobsDead: "jobs_dead",

  // Statuses (src/store/statuses.ts). A status id is also its time.
  /** statusId → StatusRecord (reblogs are statuses with reblogOfId) */
  statuses: "statuses",
  // The seven below hold ids only, packed since schema 11 (store/id-keys.ts); migration 11 moved them from the
  // ordered-binary keyspaces named without "_ids" (the legacy* entries), which it empties.
  /** [accountId, statusId] → null: an account's statuses and reblogs, newest last */
  statusesByAccount: "statuses_by_account_ids",
  /** [parentId, statusId] → accountId: direct replies of a status */
  statusReplies: "status_replies_ids",
  /** [originalId, reblogId] → accountId: who reblogged (reblogged_by pages by reblog id) */
  reblogsByStatus: "reblogs_by_status_ids",
  /** [accountId, originalId] → reblogId: has this account reblogged it */
  reblogOf: "reblog_of_ids",
  /** [accountId, favouriteId] → statusId: an account's favourites (GET /api/v1/favourites) */
  favourites: "favourites_ids",
  /** [statusId, favouriteId] → accountId: favourited_by */
  favouritesByStatus: "favourites_by_status_ids",
  /** [accountId, statusId] → favouriteId: has this account favourited it */
  favouriteOf: "favourite_of_ids",
  legacyStatusesByAccount: "statuses_by_account",
  legacyStatusReplies: "status_replies",
  legacyReblogsByStatus: "reblogs_by_status",
  legacyReblogOf: "reblog_of",
  legacyFavourites: "favourites",
  legacyFavouritesByStatus: "favourites_by_status",
  legacyFavouriteOf: "favourite_of",
  /** [accountId, bookmarkId] → statusId */
  bookmarks: "bookmarks",
  /** [accountId, statusId] → bookmarkId */
  bookmarkOf: "bookmark_of",
  /** [statusId, bookmarkId] → accountId: lets status removal find its bookmarks */
  bookmarksByStatus: "bookmarks_by_status",
  /** [accountId, pinId] → statusId */
  pins: "pins",
  /** [accountId, statusId] → pinId */
  pinOf: "pin_of",
  /** [accountId, idempotencyKey] → { statusId, at } */
  idempotency: "idempotency",
  /** statusId → PreviewCardRecord */
  cards: "cards",
  /** [statusId, editId] → StatusEditRecord: the versions of an edited status, the original first (store/status-edits.ts) */
  statusEdits: "status_edits",
  /** ActivityPub id → statusId: statuses and reblogs from other servers (ours are found by their path) */
  statusesByUri: "statuses_by_uri",

  // Polls (src/store/polls.ts; docs/polls.md): two families by the first element, a poll keyed by its status
  /** ["p", statusId] → PollRecord; ["v", statusId, accountId] → PollVoteRecord (one account's choices) */
  polls: "polls",

  // Quote posts (src/store/quotes.ts; docs/statuses.md#quotes): the quote itself is on the quoting status's record
  /** ["s", quotedStatusId, quotingStatusId] → quoting accountId: the accepted quotes of a status, paged by the quoting id */
  /** ["a", authorization uri] → quoting statusId: QuoteAuthorizations given by other servers (FEP-044f) */
  quotes: "quotes",

  // Scheduled statuses (src/store/scheduled-statuses.ts; docs/statuses.md): two families by the first element
  /** ["s", scheduledId] → ScheduledStatusRecord; ["a", accountId, scheduledId] → scheduledAt (ms): an account's, paged by id */
  scheduledStatuses: "scheduled_statuses",

  // Relationships (src/store/relationships.ts). Row ids are snowflakes: list paging uses them as cursors.
  /** [followerId, targetId] → FollowRecord */
  follows: "follows",
  /** [targetId, followId] → followerId */
  followersIndex: "followers_index",
  /** [followerId, followId] → targetId */
  followingIndex: "following_index",
  /** [requesterId, targetId] → FollowRecord (a pending request) */
  followRequests: "follow_requests",
  /** [targetId, requestId] → requesterId */
  followRequestsIndex: "follow_requests_index",
  /** [targetId, followerId] → null: the follows with `notify` on (a `status` notification for each new post) */
  notifyingFollowers: "notifying_followers",
  /** [blockerId, targetId] → BlockRecord */
  blocks: "blocks",
  /** [blockerId, blockId] → targetId */
  blocksIndex: "blocks_index",
  /** [muterId, targetId] → MuteRecord */
  mutes: "mutes",
  /** [muterId, muteId] → targetId */
  mutesIndex: "mutes_index",
  /** [accountId, targetId] → string: private note on another account */
  accountNotes: "account_notes",

  // Notifications (src/store/notifications.ts)
  /** [recipientId, notificationId] → NotificationRecord */
  notifications: "notifications",
  /** [statusId, notificationId] → recipientId: removed with the status (ids packed: store/id-keys.ts) */
  notificationsByStatus: "notifications_by_status_ids",
  /** [recipientId, fromAccountId, notificationId] → null: removed by block clean-up (ids packed) */
  notificationsByPair: "notifications_by_pair_ids",
  /** The two above as ordered-binary strings and msgpack values (schemas up to 8); migration 9 moves them */
  legacyNotificationsByStatus: "notifications_by_status",
  legacyNotificationsByPair: "notifications_by_pair",
  /** Policies, requests and permissions (src/store/notification-policy.ts), families by the first element:
   * ["p", accountId] → NotificationPolicyRecord; ["r", recipientId, requestId] → NotificationRequestRecord;
   * ["s", recipientId, fromAccountId] → requestId; ["a", recipientId, fromAccountId] → acceptedAt (ms);
   * ["m", recipientId, requestId] → fromAccountId (accepted, notifications not yet merged) */
  notificationFiltering: "notification_filtering",

  // Timelines (src/store/timelines.ts, lists.ts, markers.ts). Feeds hold ids only: statuses are re-read and
  // re-checked at read time, so a feed row never shows what its viewer may no longer see.
  /** viewerId → status id duplicates (store/home-rows.ts: 8 bytes each, sorted): the home timeline, filled by
   * fan-out on write */
  homeFeed: "home_status_ids",
  /** viewerId → the rows of schemas 4–9 (status, author and reblogged ids in 16 or 24 bytes); migration 10
   * moves them into home_status_ids */
  wideHomeFeed: "home_rows",
  /** [viewerId, statusId] → FeedEntry: the home timeline before schema 4; migration 4 moves it to home_rows */
  legacyHomeFeed: "home_feed",
  /** [viewerId, originalId] → reblogId: the reblog that brought a status into a home timeline (de-duplication;
   * ids packed: store/id-keys.ts) */
  homeReblogs: "home_reblog_ids",
  /** The same as ordered-binary strings and msgpack values (schemas up to 8); migration 9 moves them */
  legacyHomeReblogs: "home_reblogs",
  /** [listId, statusId] → FeedEntry: a list's timeline */
  listFeed: "list_feed",
  /** [feed, statusId] → PublicEntry: "public", "public:local", "public:remote" and "tag:<name>" */
  publicFeeds: "public_feeds",
  /** [ownerId, listId] → ListRecord */
  lists: "lists",
  /** [listId, accountId] → null: members, paged by account id */
  listMembers: "list_members",
  /** [accountId, ownerId, listId] → null: the lists an account is on (fan-out, exclusive lists) */
  listMemberships: "list_memberships",
  /** [accountId, timeline] → MarkerRecord */
  markers: "markers",

  // Media attachments (src/store/media.ts)
  /** mediaId → MediaRecord */
  media: "media",
  /** [unattachedSince (ms), mediaId] → accountId: uploads on no status, oldest first (the daily clean-up) */
  mediaUnattached: "media_unattached",

  // Hashtag history (src/store/tags.ts): Mastodon's daily uses and accounts, for the Tag entity's `history`.
  /** [tag, day (days since the epoch)] → { uses, accounts } */
  tagDays: "tag_days",
  /** [tag, day, statusId] → null: counted already (so counting twice after a crash is harmless) */
  tagDayStatuses: "tag_day_statuses",
  /** [tag, day, accountId] → null: this account used the tag that day */
  tagDayAccounts: "tag_day_accounts",

  // Hashtags accounts follow or feature (src/store/tag-follows.ts, featured-tags.ts; docs/tags.md), families by the first element
  /** ["f", accountId, tag] → TagFollowRecord; ["fi", accountId, followId] → tag (followed_tags, by follow id);
   * ["by", tag, accountId] → null (a tag's local followers, for fan-out); ["ft", accountId, featuredId] →
   * FeaturedTagRecord; ["fn", accountId, tag] → featuredId; ["fs", statusId, tag] → FeaturedUse (a status counted) */
  tagChoices: "tag_choices",

  // An account's own choices about others (src/store/endorsements.ts, user-domain-blocks.ts, thread-mutes.ts;
  // docs/account-extras.md), families by the first element
  /** ["e", accountId, targetId] → EndorsementRecord; ["ei", accountId, endorsementId] → targetId;
   * ["d", accountId, domain] → UserDomainBlockRecord; ["di", accountId, blockId] → domain;
   * ["m", accountId, threadId] → mutedAt (ms): a muted thread (its root status id) */
  accountChoices: "account_choices",

  // Conversations (src/store/conversations.ts; docs/conversations.md): direct threads per local participant,
  // four families by the first element
  /** ["c", accountId, conversationId] → ConversationRecord; ["l", accountId, lastStatusId, conversationId] → null
   * (the list, by last status); ["k", accountId, threadId] → conversationId; ["t", statusId] → ThreadEntry (the
   * thread of a direct status and the conversations it went into) */
  conversations: "conversations",

  // Trends (src/store/trends.ts; docs/trends.md), families by the first element
  /** ["list", "tags" | "statuses" | "links"] → TrendList (computed by the trends.refresh job); ["review", kind, key]
   * → "approved" | "rejected"; ["auto_approve"] → true; ["next"] → runAt (ms) of the pending refresh */
  trends: "trends",

  // Announcements (src/store/announcements.ts; docs/instance.md), families by the first element
  /** ["a", announcementId] → AnnouncementRecord; ["d", accountId, announcementId] → dismissedAt (ms);
   * ["r", announcementId, name, accountId] → reactedAt (ms) */
  announcements: "announcements",
  // Custom emojis (src/store/emojis.ts; docs/instance.md)
  /** ["e", shortcode] → CustomEmojiRecord (its files under data/media/emojis/) */
  customEmojis: "custom_emojis",

  // Follow suggestions (src/store/suggestions.ts): two record families in one keyspace, by the first element
  /** ["featured", accountId] → FeaturedRecord (staff picks); ["dismissed", viewerId, targetId] → dismissedAt (ms) */
  suggestions: "suggestions",

  // Custom filters (src/store/filters.ts): two record families in one keyspace, by the first element
  /** ["f", accountId, filterId] → FilterRecord (with its keywords and statuses); ["i", keywordOrStatusId] →
   * FilterItemRef (which filter a keyword or status entry belongs to) */
  filters: "filters",

  // Search index of the embedded engine (src/store/search-index.ts, src/search/embedded.ts; docs/search.md).
  // Words are folded and split by src/search/tokenize.ts. Two keyspaces hold the three families, by prefix.
  /** word → posting rows (dupSort, store/search-rows.ts), by the key's first letter:
   * "s<word>" → status ids (8 bytes, newest last); "s@<accountId>" → the account's indexed statuses;
   * "a<word prefix>" → accounts with a word starting so (18 bytes: best ranked first); "a@<acct>" → the exact acct */
  searchPostings: "search_postings",
  /** the documents as indexed (to remove or replace them, and to check a query's other words):
   * ["s", statusId] → its words joined by spaces, its "@<accountId>" first;
   * ["a", accountId] → [acct, followersCount, lastStatusAt | null, discoverable, words joined by spaces];
   * ["t", folded name, name] → uses (hashtags) */
  searchDocs: "search_docs",

  // Web Push (src/store/push.ts; docs/push.md): three families in one keyspace, by the first element. The VAPID
  // key pair is in `meta` ("vapid_public_key", "vapid_private_key"), with the subscription id sequence.
  /** ["t", tokenHash] → PushSubscriptionRecord (one per access token); ["a", accountId, tokenHash] → null;
   * ["d", notificationId, subscriptionId] → at: delivered by a job attempt that is retried for another one */
  pushSubscriptions: "push_subscriptions",

  // Instance (src/store/rules.ts)
  /** ruleId → RuleRecord: the server rules, in id (creation) order */
  rules: "rules",

  // Reports (src/store/reports.ts): five families in one keyspace, by the first element
  /** ["r", reportId] → ReportRecord; ["o", reportId] / ["c", reportId] → null (open / resolved);
   * ["a", reporterId, reportId] → null; ["t", targetAccountId, reportId] → null */
  reports: "reports",

  // Annual reports (src/store/annual-reports.ts; docs/annual-reports.md): two families by the first element
  /** ["r", accountId, year] → AnnualReportRecord; ["g", accountId, year] → AnnualReportGeneration (asked for, not done) */
  annualReports: "annual_reports",

  // Moderation (src/store/admin.ts; docs/admin.md): instance-wide blocks, families by the first element
  /** ["domain_block", id] → DomainBlockRecord; ["domain_block_name", domain] → id;
   * ["email_block", id] → EmailDomainBlockRecord; ["email_block_name", domain] → id;
   * ["email_block_day", id, day] → { uses, accounts }: refused sign-ups per day (the entity's history);
   * ["email_block_seen", id, day, sha256(e-mail)] → null: an address counted that day already;
   * ["warning", accountId, warningId] → AccountWarningRecord: what staff did to an account and told its owner */
  moderation: "moderation",

  // Federation (src/store/federation-kv.ts; docs/federation.md): Fedify's key-value store and the actors' other
  // keys, families by the first element
  /** ["v", ...fedifyKey] → FederationKvEntry (the value as JSON text, its original key, its expiry);
   * ["x", expiresAt (ms), ...fedifyKey] → null: entries with a TTL by expiry, swept as later sets pass;
   * ["k", accountId | "instance", "Ed25519" | "RSASSA-PKCS1-v1_5"] → ActorKeyRecord: keys made on first use
   * (local accounts' RSA pairs stay in account_keys) */
  federationKv: "federation_kv",

  // One-time links sent by e-mail (src/store/user-tokens.ts; docs/web.md): confirmation and password reset,
  // two families by the first element
  /** ["t", sha256(token)] → UserTokenRecord (kept, marked used, until it expires); ["x", expiresAt (ms),
   * sha256(token)] → null: tokens by expiry, swept as new ones are issued. Also the imports of /settings/import
   * (src/store/imports.ts): ["i", accountId, importId] → ImportRecord; ["j", importId, index] → ImportRow */
  userTokens: "user_tokens",

  // Browser sessions of the web pages (src/store/web-sessions.ts; docs/web.md), two families by the first element
  /** ["s", sha256(session id)] → WebSessionRecord (the cookie holds the id; only its digest is stored);
   * ["a", accountId, publicId] → sha256(session id): a user's sessions, oldest first (the sessions page, ending them all) */
  webSessions: "web_sessions",

  // Collections (src/store/collections.ts; docs/collections.md), families by the first element
  /** ["c", collectionId] → CollectionRecord; ["a", ownerId, collectionId] → null: an account's collections;
   * ["i", collectionId, itemId] → CollectionItemRecord; ["f", featuredAccountId, collectionId] → itemId */
  collections: "collections",

  // Caches (src/store/versions.ts)
  /** version name ("a:<accountId>", "s:<statusId>", "h:<accountId>" …) → number, bumped by the writes that change it */
  versions: "versions",
  /** sequence number → the version names one write transaction bumped; the last 4,096 (src/store/version-log.ts) */
  versionLog: "version_log",
} as const;

export type KeyspaceName = keyof typeof KEYSPACES;

/** lmdb-js options of the keyspaces that are not (uncompressed) msgpack records under ordered keys. */
export const KEYSPACE_OPTIONS: Partial<Record<KeyspaceName, object>> = {
  statuses: STATUSES_OPTIONS,
  notificationsByStatus: PACKED_ID_OPTIONS,
  notificationsByPair: PACKED_ID_OPTIONS,
  homeReblogs: PACKED_ID_OPTIONS,
  statusesByAccount: PACKED_ID_OPTIONS,
  statusReplies: PACKED_ID_OPTIONS,
  reblogsByStatus: PACKED_ID_OPTIONS,
  reblogOf: PACKED_ID_OPTIONS,
  favourites: PACKED_ID_OPTIONS,
  favouritesByStatus: PACKED_ID_OPTIONS,
  favouriteOf: PACKED_ID_OPTIONS,
  homeFeed: HOME_ROWS_OPTIONS,
  wideHomeFeed: HOME_ROWS_OPTIONS,
  searchPostings: SEARCH_POSTINGS_OPTIONS,
};
