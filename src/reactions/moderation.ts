// What follows staff's decisions and users' reports (domain/admin, domain/reports; docs/admin.md).
import type { Subscriber } from "../domain/events.ts";
import { notifyStaffOfReport } from "../domain/reports/notify-staff.ts";
import { removeAccountData } from "../domain/admin/accounts-removal.ts";
import { applyDomainBlockToAccounts } from "../domain/admin/domain-block-accounts.ts";
import { mailAccountWarning } from "../domain/admin/accounts-mail.ts";
import { endFollowsOfSuspended } from "../domain/admin/suspended-follows.ts";
import { sendActorDelete, sendFlag } from "../federation/senders.ts";
import { LONG_RUNNING_MS, on } from "./table.ts";

export const MODERATION_REACTIONS: readonly Subscriber<any>[] = [
  // An admin.report notification to every moderator
  on({ name: "reports.notify_staff", on: "report.created", lane: "default", run: (ctx, event) => notifyStaffOfReport(ctx, event.payload.reportId) }),
  // A forwarded report out as a Flag from the instance actor (federation/flags.ts)
  on({ name: "federation.send_flag", on: "report.created", lane: "network", localOnly: true, run: (ctx, event) => sendFlag(ctx, event.payload) }),
  // A suspended account's data goes after the retention, unless the suspension was lifted meanwhile;
  // DELETE /api/v1/admin/accounts/:id has it go at once
  on({
    name: "accounts.suspension_removal",
    on: "account.suspended",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    delayMs: (event) => event.payload.removeAt - event.at,
    run: (ctx, event) => removeAccountData(ctx, event.payload.accountId, event.payload.suspendedAt),
  }),
  on({
    name: "accounts.data_deletion",
    on: "account.data_deletion",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => removeAccountData(ctx, event.payload.accountId, null),
  }),
  on({
    name: "moderation.apply_domain_block",
    on: "instance_domain_block.changed",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => applyDomainBlockToAccounts(ctx, event.payload.domain),
  }),
  on({ name: "mail.account_warning", on: "account.warned", lane: "network", run: (ctx, event) => mailAccountWarning(ctx.store, ctx.config, event.payload) }),
  // Accounts gone or suspended: a deleted local account's actor Delete (federation/account-deletion.ts), at once
  // or when a suspension's retention ends; a remote account suspended here loses its follows of local accounts
  // at once, each answered with a Reject(Follow) (domain/admin/suspended-follows.ts)
  on({
    name: "federation.send_actor_delete",
    on: "account.data_deletion",
    lane: "network",
    localOnly: true,
    run: (ctx, event) => sendActorDelete(ctx, event.payload.accountId),
  }),
  on({
    name: "federation.send_actor_delete_after_retention",
    on: "account.suspended",
    lane: "network",
    localOnly: true,
    delayMs: (event) => event.payload.removeAt - event.at,
    run: (ctx, event) => sendActorDelete(ctx, event.payload.accountId, event.payload),
  }),
  on({
    name: "relationships.end_follows_of_suspended",
    on: "account.suspended",
    lane: "default",
    localOnly: true,
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => endFollowsOfSuspended(ctx, event.payload.accountId, event.payload.suspendedAt),
  }),
];
