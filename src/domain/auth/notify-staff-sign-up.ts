// `admin.sign_up` notifications: a local sign-up waiting for approval notifies every user whose role can
// manage_users (Mastodon's notify_staff_about_pending_account!), once its e-mail address is confirmed, so
// unconfirmed sign-ups never reach the staff. Run on `account.created` and on `user.confirmed`; notify()
// makes a second run add nothing.
import { getAccount, getUser } from "../../store/accounts.ts";
import { usersWithRole } from "../../store/reports.ts";
import { ROLE_NAMES, roleCan } from "../accounts/roles.ts";
import type { SubscriberContext } from "../events.ts";
import { notify } from "../notifications/notify.ts";

const USER_MANAGERS = ROLE_NAMES.filter((role) => roleCan(role, "manage_users"));

export async function notifyStaffOfSignUp(ctx: Pick<SubscriberContext, "store" | "jobs">, accountId: string): Promise<void> {
  const { store } = ctx;
  const account = getAccount(store, accountId);
  const user = getUser(store, accountId);
  if (!account || account.domain !== null || !user || user.approved || user.confirmedAt === null || user.disabled) return;
  const staff = usersWithRole(store, USER_MANAGERS).filter((member) => !member.disabled && getAccount(store, member.accountId)?.suspended === false);
  if (staff.length === 0) return;
  await store.write(() => {
    for (const member of staff) notify(ctx, { type: "admin.sign_up", recipientId: member.accountId, fromAccountId: accountId });
  });
}
