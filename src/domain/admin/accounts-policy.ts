// Who may do what to an account, as Mastodon's AccountPolicy and UserPolicy decide it. The route checks the
// permission every caller of an endpoint needs (the auth plugin's `admin` macro); these add what depends on
// the record: a staff member acts only on accounts whose role is below their own, approval only for pending
// users, deletion only of data a suspension still holds. The operator at the console (`warren …`) may do all.
import { NotPermitted } from "../../lib/errors.ts";
import { roleCan, roleOf, type Permission } from "../accounts/roles.ts";
import type { AccountRecord, RoleName, UserRecord } from "../../model/accounts.ts";

/** The acting staff member, or null for the operator at the console. */
export type Staff = { account: AccountRecord; role: RoleName } | null;

export function staffCan(staff: Staff, ...any: Permission[]): boolean {
  return staff === null || roleCan(staff.role, ...any);
}

/** Mastodon's UserRole#overrides?: a remote account (no role) is below everyone; otherwise by position. */
export function overrides(staff: Staff, targetRole: RoleName | null): boolean {
  if (staff === null || targetRole === null) return true;
  return roleOf(staff.role).position > roleOf(targetRole).position;
}

export function ensure(allowed: boolean): void {
  if (!allowed) throw new NotPermitted();
}

/** warn (type none), sensitive, silence and suspend: manage_users or manage_reports, over the target's role. */
export function mayModerate(staff: Staff, user: UserRecord | null): boolean {
  return staffCan(staff, "manage_users", "manage_reports") && overrides(staff, user?.role ?? null);
}

/** disable: manage_users, over the user's role. */
export function mayDisable(staff: Staff, user: UserRecord | null): boolean {
  return staffCan(staff, "manage_users") && overrides(staff, user?.role ?? null);
}

/** approve and reject: a local user still pending. */
export function mayDecideSignUp(staff: Staff, account: AccountRecord, user: UserRecord | null): boolean {
  return staffCan(staff, "manage_users") && account.domain === null && !!user && !user.approved;
}

/** unsuspend: only a suspension this server's staff made, and only while the data is still there. */
export function mayUnsuspend(staff: Staff, account: AccountRecord): boolean {
  return staffCan(staff, "manage_users") && account.suspended && account.suspensionOrigin !== "remote" && !account.dataDeletedAt;
}

/** destroy: delete_user_data, for a suspension whose data has not been deleted yet (Mastodon's "temporarily"). */
export function mayDeleteData(staff: Staff, account: AccountRecord): boolean {
  return staffCan(staff, "delete_user_data") && account.suspended && !account.dataDeletedAt;
}
