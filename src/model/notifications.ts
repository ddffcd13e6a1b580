// Notifications, the notification policy, Web Push subscriptions and markers.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

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

export type PolicyValue = "accept" | "filter" | "drop";

export interface NotificationPolicyRecord {
  v: 1;
  forNotFollowing: PolicyValue;
  forNotFollowers: PolicyValue;
  forNewAccounts: PolicyValue;
  forPrivateMentions: PolicyValue;
  forLimitedAccounts: PolicyValue;
  forBots: PolicyValue;
}

export interface NotificationRequestRecord {
  v: 1;
  id: string;
  recipientId: string;
  fromAccountId: string;
  /** the status of the newest filtered notification that had one */
  lastStatusId: string | null;
  /** filtered notifications of the sender, counted as they came (at most REQUEST_COUNT_CAP) */
  notificationsCount: number;
  createdAt: number;
  updatedAt: number;
}

export type PushPolicy = "all" | "followed" | "follower" | "none";

export interface PushSubscriptionRecord {
  v: 1;
  /** Mastodon's WebPushSubscription.id is a JSON number: a sequence, not a snowflake */
  id: number;
  tokenHash: string;
  accountId: string;
  /**
   * The access token itself: Mastodon's push payload carries it (`access_token`) so that a client can tell
   * which of its accounts a push is for. Tokens are otherwise stored hashed only; this copy lives exactly as
   * long as the token does (docs/push.md).
   */
  accessToken: string;
  endpoint: string;
  /** the user agent's P-256 public key and auth secret, base64url without padding */
  p256dh: string;
  auth: string;
  /** true: RFC 8291 (aes128gcm); false: the legacy aesgcm draft */
  standard: boolean;
  /** notification type → on; absent types are off */
  alerts: Record<string, boolean>;
  policy: PushPolicy;
  createdAt: number;
  updatedAt: number;
}

export interface VapidKeys {
  /** uncompressed P-256 point, base64url */
  publicKey: string;
  /** 32-byte scalar, base64url */
  privateKey: string;
}

export type MarkerTimeline = "home" | "notifications";

export interface MarkerRecord {
  v: 1;
  lastReadId: string;
  /** optimistic-lock counter: starts at 0, one more with every change */
  version: number;
  updatedAt: number;
}
