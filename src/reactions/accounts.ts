// What follows a local account being created, confirmed or changed (domain/auth, domain/accounts): staff are
// told of sign-ups, search indexes the account, mails go out, imports and annual reports run in the
// background, and profile changes reach other servers (federation/profiles.ts).
import type { Subscriber } from "../domain/events.ts";
import { notifyStaffOfSignUp } from "../domain/auth/notify-staff-sign-up.ts";
import { mailConfirmation } from "../domain/auth/confirmation.ts";
import { mailPasswordReset } from "../domain/auth/password-reset.ts";
import { mailEmailChange } from "../domain/auth/email-change.ts";
import { indexAccounts } from "../domain/search/indexing.ts";
import { runImport } from "../domain/accounts/import.ts";
import { generateAnnualReport } from "../domain/annual-reports/generate.ts";
import { moveFollowers } from "../domain/accounts/move-followers.ts";
import { sendMove, sendProfileUpdate } from "../federation/senders.ts";
import { LONG_RUNNING_MS, on } from "./table.ts";

/** Search indexing of accounts: the same work, whichever event announced the change. */
const indexAccount = <T extends "account.created" | "account.updated">(name: "search.index_new_account" | "search.index_account", event: T): Subscriber<T> =>
  on<T>({
    name,
    on: event,
    lane: "default",
    run: (ctx, recorded) => indexAccounts(ctx, [recorded.payload.accountId]),
    runBatch: (ctx, events) => indexAccounts(ctx, events.map((recorded) => recorded.payload.accountId)),
  });

export const ACCOUNT_REACTIONS: readonly Subscriber<any>[] = [
  // Sign-ups waiting for approval: an admin.sign_up notification to every user manager, once confirmed
  on({ name: "accounts.notify_staff_sign_up", on: "account.created", lane: "default", run: (ctx, event) => notifyStaffOfSignUp(ctx, event.payload.accountId) }),
  indexAccount("search.index_new_account", "account.created"),
  on({ name: "accounts.notify_staff_confirmed_sign_up", on: "user.confirmed", lane: "default", run: (ctx, event) => notifyStaffOfSignUp(ctx, event.payload.accountId) }),
  indexAccount("search.index_account", "account.updated"),
  on({
    name: "federation.send_profile_update",
    on: "account.updated",
    lane: "network",
    localOnly: true,
    run: (ctx, event) => sendProfileUpdate(ctx, event.payload, event.at),
  }),
  // Account migration (docs/federation.md "Moving accounts"): local followers carried over in batches
  // (accounts/move-followers.ts); a local account's move sent as `Move` (federation/moves.ts).
  on({ name: "accounts.move_followers", on: "account.moved", lane: "default", timeoutMs: LONG_RUNNING_MS, run: moveFollowers }),
  on({ name: "federation.send_move", on: "account.moved", lane: "network", localOnly: true, run: (ctx, event) => sendMove(ctx, event.payload, event.at) }),
  // Mails (docs/mail.md)
  on({ name: "mail.confirmation", on: "user.confirmation_requested", lane: "network", run: (ctx, event) => mailConfirmation(ctx, event) }),
  on({ name: "mail.password_reset", on: "user.password_reset_requested", lane: "network", run: (ctx, event) => mailPasswordReset(ctx, event) }),
  on({ name: "mail.email_change", on: "user.email_change_requested", lane: "network", run: (ctx, event) => mailEmailChange(ctx, event) }),
  // /settings/import (domain/accounts/import.ts): the rows of an uploaded file, in batches
  on({ name: "accounts.import", on: "account.import_requested", lane: "backfill", timeoutMs: LONG_RUNNING_MS, run: (ctx, event) => runImport(ctx, event) }),
  // Annual reports (docs/annual-reports.md): a year of an account's activity, read in batches
  on({
    name: "annual_reports.generate",
    on: "annual_report.requested",
    lane: "backfill",
    timeoutMs: LONG_RUNNING_MS,
    run: (ctx, event) => generateAnnualReport(ctx, event.payload),
  }),
];
