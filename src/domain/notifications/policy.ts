// Notification policy (Mastodon 4.3+, GET/PATCH /api/v2/notifications/policy; docs/notifications.md): what
// happens to notifications from senders in each category (accept, filter into a notification request, or
// drop), and the verdict notify() asks for inside the write that would create one.
import type { Deps } from "../../deps.ts";
import { getAccount } from "../../store/accounts.ts";
import { domainBlockByName } from "../../store/admin.ts";
import type { Store } from "../../store/db.ts";
import { getPolicyRecord, isPermitted, putPolicyRecord, someRequests } from "../../store/notification-policy.ts";
import { getFollow, isFollowing } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { roleCan, roleOf } from "../accounts/roles.ts";
import { requestShown } from "./requests.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { NotificationPolicyRecord, NotificationType, PolicyValue } from "../../model/notifications.ts";

export const POLICY_VALUES: readonly PolicyValue[] = ["accept", "filter", "drop"];

/** Mastodon's defaults: private mentions and limited accounts are filtered, the rest accepted. */
export const DEFAULT_POLICY: NotificationPolicyRecord = {
  v: 1,
  forNotFollowing: "accept",
  forNotFollowers: "accept",
  forNewAccounts: "accept",
  forPrivateMentions: "filter",
  forLimitedAccounts: "filter",
  forBots: "accept",
};

/** Summary counts stop here (Mastodon's MAX_MEANINGFUL_COUNT). */
export const SUMMARY_CAP = 100;
/** Accounts younger than this are new (for_new_accounts). */
const NEW_ACCOUNT_MS = 30 * 86_400_000;
/** A follower of less than this is not a follower yet (for_not_followers). */
const FOLLOWER_SINCE_MS = 3 * 86_400_000;
/** Ancestors examined for a private mention answering the recipient. */
const THREAD_DEPTH = 20;
/** Types never held back: they come from the server or from one's own actions. */
const UNFILTERABLE = new Set<NotificationType>(["poll", "update", "quoted_update", "admin.sign_up", "admin.report", "annual_report"]);

export function policyOf(store: Store, accountId: string): NotificationPolicyRecord {
  return { ...DEFAULT_POLICY, ...getPolicyRecord(store, accountId) };
}

export type PolicyChanges = Partial<Omit<NotificationPolicyRecord, "v">>;

export async function updatePolicy(deps: Deps, accountId: string, changes: PolicyChanges): Promise<NotificationPolicyRecord> {
  let updated = DEFAULT_POLICY;
  await deps.store.write(() => {
    updated = { ...policyOf(deps.store, accountId), ...changes, v: 1 };
    putPolicyRecord(deps.store, accountId, updated);
  });
  return updated;
}

export interface PolicySummary {
  pendingRequests: number;
  pendingNotifications: number;
}

/** Pending requests (those that may be shown) and their notifications, over at most SUMMARY_CAP requests. */
export function policySummary(store: Store, accountId: string): PolicySummary {
  const requests = someRequests(store, accountId, SUMMARY_CAP * 2).filter((r) => requestShown(store, r)).slice(0, SUMMARY_CAP);
  return { pendingRequests: requests.length, pendingNotifications: requests.reduce((sum, r) => sum + r.notificationsCount, 0) };
}

export interface PolicyInput {
  type: NotificationType;
  recipientId: string;
  fromAccountId: string;
  statusId: string | null;
}

/**
 * What the recipient's policy does with this notification: "drop" when a category the sender is in drops,
 * else "filter" when one filters, else "accept". Staff, senders whose request was accepted and types from the
 * server are always accepted.
 */
export function policyVerdict(store: Store, input: PolicyInput, now = Date.now()): PolicyValue {
  if (UNFILTERABLE.has(input.type)) return "accept";
  const recipient = getAccount(store, input.recipientId);
  const sender = getAccount(store, input.fromAccountId);
  if (!recipient || !sender || recipient.domain !== null) return "accept";
  if (isPermitted(store, recipient.id, sender.id) || fromStaff(sender, recipient)) return "accept";
  const policy = policyOf(store, recipient.id);
  const following = isFollowing(store, recipient.id, sender.id);
  const verdicts: PolicyValue[] = [];
  if (!following) verdicts.push(policy.forNotFollowing);
  if (!following && limited(store, sender)) verdicts.push(policy.forLimitedAccounts);
  if (!following && sender.bot) verdicts.push(policy.forBots);
  if (notFollower(store, sender.id, recipient.id, now)) verdicts.push(policy.forNotFollowers);
  if (now - sender.createdAt < NEW_ACCOUNT_MS) verdicts.push(policy.forNewAccounts);
  if (!following && privateMentionNotAnswering(store, input)) verdicts.push(policy.forPrivateMentions);
  return verdicts.includes("drop") ? "drop" : verdicts.includes("filter") ? "filter" : "accept";
}

/** Local staff who may act on the recipient (Mastodon's bypass_block?). */
function fromStaff(sender: AccountRecord, recipient: AccountRecord): boolean {
  return sender.domain === null && roleCan(sender.role, "manage_users") && roleOf(sender.role).position > roleOf(recipient.role).position;
}

/** Silenced by staff, or from a server staff limited. */
function limited(store: Store, sender: AccountRecord): boolean {
  if (sender.silenced) return true;
  return sender.domain !== null && domainBlockByName(store, sender.domain)?.severity === "silence";
}

function notFollower(store: Store, senderId: string, recipientId: string, now: number): boolean {
  const follow = getFollow(store, senderId, recipientId);
  return !follow || now - follow.createdAt < FOLLOWER_SINCE_MS;
}

/** A direct mention that does not answer a post of the recipient's mentioning the sender. */
function privateMentionNotAnswering(store: Store, input: PolicyInput): boolean {
  if (input.type !== "mention" || !input.statusId) return false;
  let status = getStatus(store, input.statusId);
  if (!status || status.visibility !== "direct") return false;
  for (let depth = 0; depth < THREAD_DEPTH && status.inReplyToId; depth++) {
    status = getStatus(store, status.inReplyToId);
    if (!status) return true;
    if (status.accountId === input.recipientId && status.mentionIds.includes(input.fromAccountId)) return false;
  }
  return true;
}
