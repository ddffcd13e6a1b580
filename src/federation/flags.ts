// Reports forwarded to the reported account's server (Mastodon's ReportService#forward_to_origin!): a `Flag`
// from the instance actor, so the reporter stays anonymous, with the account and the reported statuses as
// `object` and the comment as `content`. It goes to the account's own inbox and, as Mastodon 4.x does, to the
// servers of accounts the reported statuses replied to whose domains the reporter chose
// (`forward_to_domains[]`, by default only the account's own), each once, through its shared inbox.
import { INSTANCE_ACTOR_IDENTIFIER } from "./context.ts";
import { Flag } from "@fedify/vocab";
import type { EventPayloads, SubscriberContext } from "../domain/events.ts";
import { getAccount } from "../store/accounts.ts";
import { getReport } from "../store/reports.ts";
import { getStatus } from "../store/statuses.ts";
import { context } from "./fedify-context.ts";
import { recipientOf } from "./recipients.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** Remote authors of what the reported statuses replied to, on the chosen domains, but the target's inboxes. */
function replyTargets(ctx: SubscriberContext, target: AccountRecord, statuses: StatusRecord[], domains: string[]): AccountRecord[] {
  const chosen = new Set(domains.map((domain) => domain.trim().toLowerCase()));
  const found = new Map<string, AccountRecord>();
  for (const status of statuses) {
    const account = status.inReplyToAccountId ? getAccount(ctx.store, status.inReplyToAccountId) : undefined;
    if (!account || account.domain === null || account.suspended || !account.inbox || !chosen.has(account.domain.toLowerCase())) continue;
    const inbox = account.sharedInbox ?? account.inbox;
    if (inbox === target.inbox || inbox === target.sharedInbox) continue;
    found.set(inbox, account);
  }
  return [...found.values()];
}

/** report.created: a forwarded report of a remote account goes to its server as a `Flag`. */
export async function sendFlag(ctx: SubscriberContext, event: EventPayloads["report.created"]): Promise<void> {
  const report = getReport(ctx.store, event.reportId);
  const target = report?.forwarded ? getAccount(ctx.store, report.targetAccountId) : undefined;
  if (!report || !target || target.domain === null || !target.inbox) return;
  const statuses = report.statusIds.map((id) => getStatus(ctx.store, id)).filter((status): status is StatusRecord => !!status);
  const fed = await context(ctx);
  const flag = new Flag({
    id: new URL(`/reports/${report.id}/flag`, ctx.config.url),
    actor: fed.getActorUri(INSTANCE_ACTOR_IDENTIFIER),
    objects: [new URL(target.uri), ...statuses.map((status) => new URL(status.uri))],
    content: report.comment,
  });
  const sender = { identifier: INSTANCE_ACTOR_IDENTIFIER };
  await fed.sendActivity(sender, recipientOf(target), flag);
  const others = replyTargets(ctx, target, statuses, event.forwardToDomains ?? [target.domain]);
  if (others.length > 0) await fed.sendActivity(sender, others.map(recipientOf), flag, { preferSharedInbox: true });
}
