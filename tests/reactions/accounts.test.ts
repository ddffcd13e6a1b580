// src/reactions/accounts.ts and moderation.ts: sign-ups, profile changes, moves, mails, imports, reports and
// suspensions; the suspension's removal waits for its retention, and the actor Delete goes out only for a
// local account.
import { expect, test } from "bun:test";
import { eventRecorder } from "./record.ts";

const { record, reached } = eventRecorder();

test("a sign-up tells staff and is indexed; a confirmed one tells staff again", async () => {
  expect(await reached("account.created", { accountId: "1" })).toEqual(["accounts.notify_staff_sign_up", "search.index_new_account"]);
  expect(await reached("user.confirmed", { accountId: "1" })).toEqual(["accounts.notify_staff_confirmed_sign_up"]);
});

test("a profile change is reindexed, and sent out only for a local account", async () => {
  expect(await reached("account.updated", { accountId: "1" })).toEqual(["federation.send_profile_update", "search.index_account"]);
  expect(await reached("account.updated", { accountId: "1" }, "remote")).toEqual(["search.index_account"]);
});

test("a move carries the followers over; the Move goes out for a local account only", async () => {
  const move = { accountId: "1", targetId: "2" };
  expect(await reached("account.moved", move)).toEqual(["accounts.move_followers", "federation.send_move"]);
  expect(await reached("account.moved", move, "remote")).toEqual(["accounts.move_followers"]);
});

test("mails go in the network lane, one job each", async () => {
  expect(await record("user.confirmation_requested", { accountId: "1", email: "a@example.com" })).toEqual([{ name: "mail.confirmation", lane: "network", delayMs: 0 }]);
  expect(await reached("user.password_reset_requested", { accountId: "1" })).toEqual(["mail.password_reset"]);
  expect(await reached("user.email_change_requested", { accountId: "1", email: "b@example.com" })).toEqual(["mail.email_change"]);
  expect(await reached("account.warned", { accountId: "1", warningId: "3" })).toEqual(["mail.account_warning"]);
});

test("long work (imports, annual reports) runs in the backfill lane", async () => {
  expect(await record("account.import_requested", { accountId: "1", importId: "4" })).toEqual([{ name: "accounts.import", lane: "backfill", delayMs: 0 }]);
  expect(await record("annual_report.requested", { accountId: "1", year: 2025 })).toEqual([{ name: "annual_reports.generate", lane: "backfill", delayMs: 0 }]);
});

test("a report notifies staff, and a local one is forwarded as a Flag", async () => {
  const report = { reportId: "8", accountId: "1", targetAccountId: "2" };
  expect(await reached("report.created", report)).toEqual(["federation.send_flag", "reports.notify_staff"]);
  expect(await reached("report.created", report, "remote")).toEqual(["reports.notify_staff"]);
});

test("a suspension: follows end at once, data and actor Delete at the end of the retention", async () => {
  const at = Date.now();
  const day = 86_400_000;
  const jobs = await record("account.suspended", { accountId: "1", suspendedAt: at, removeAt: at + 30 * day }, "local", at);
  expect(jobs.map((job) => job.name)).toEqual(["accounts.suspension_removal", "federation.send_actor_delete_after_retention", "relationships.end_follows_of_suspended"]);
  const delays = Object.fromEntries(jobs.map((job) => [job.name, job.delayMs]));
  expect(delays["relationships.end_follows_of_suspended"]).toBe(0);
  // runAt is removeAt, counted here from the enqueue instant, a few ms after `at`
  for (const name of ["accounts.suspension_removal", "federation.send_actor_delete_after_retention"]) {
    expect(delays[name]).toBeGreaterThan(30 * day - 1_000);
    expect(delays[name]).toBeLessThanOrEqual(30 * day);
  }
});

test("a remote account's suspension only removes its data, later", async () => {
  const at = Date.now();
  expect(await reached("account.suspended", { accountId: "1", suspendedAt: at, removeAt: at }, "remote")).toEqual(["accounts.suspension_removal"]);
});

test("a data deletion now, and its actor Delete for a local account; an instance domain block in the backfill lane", async () => {
  expect(await reached("account.data_deletion", { accountId: "1" })).toEqual(["accounts.data_deletion", "federation.send_actor_delete"]);
  expect(await reached("account.data_deletion", { accountId: "1" }, "remote")).toEqual(["accounts.data_deletion"]);
  expect(await record("instance_domain_block.changed", { domain: "example.com" })).toEqual([{ name: "moderation.apply_domain_block", lane: "backfill", delayMs: 0 }]);
});
