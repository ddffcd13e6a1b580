// NotificationPolicy (Mastodon 4.3+, v2): what happens to notifications from each category of sender, and
// the pending requests it made.
import { t, type Static } from "elysia";
import type { PolicySummary } from "../domain/notifications/policy.ts";
import { Int } from "./integer.ts";
import type { NotificationPolicyRecord } from "../model/notifications.ts";

export const PolicyValueSchema = t.Union([t.Literal("accept"), t.Literal("filter"), t.Literal("drop")]);

export const NotificationPolicySchema = t.Object(
  {
    for_not_following: PolicyValueSchema,
    for_not_followers: PolicyValueSchema,
    for_new_accounts: PolicyValueSchema,
    for_private_mentions: PolicyValueSchema,
    for_limited_accounts: PolicyValueSchema,
    for_bots: PolicyValueSchema,
    summary: t.Object({
      pending_requests_count: Int({ description: "Pending notification requests (counted up to 100)" }),
      pending_notifications_count: Int({ description: "Notifications in those requests" }),
    }),
  },
  { description: "Mastodon NotificationPolicy (v2)" },
);

export type NotificationPolicy = Static<typeof NotificationPolicySchema>;

export function presentNotificationPolicy(policy: NotificationPolicyRecord, summary: PolicySummary): NotificationPolicy {
  return {
    for_not_following: policy.forNotFollowing,
    for_not_followers: policy.forNotFollowers,
    for_new_accounts: policy.forNewAccounts,
    for_private_mentions: policy.forPrivateMentions,
    for_limited_accounts: policy.forLimitedAccounts,
    for_bots: policy.forBots,
    summary: { pending_requests_count: summary.pendingRequests, pending_notifications_count: summary.pendingNotifications },
  };
}
