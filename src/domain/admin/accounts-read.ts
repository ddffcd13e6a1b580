// What the staff see of accounts: GET /api/v2/admin/accounts (Mastodon's AccountFilter: origin, status,
// permissions, role_ids, invited_by, username, display_name, by_domain, email, ip), its v1 predecessor's flags
// translated into the same filter, and one account with its user (GET /api/v1/admin/accounts/:id).
import type { Deps } from "../../deps.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { userIps } from "../../store/user-ips.ts";
import { inRange, parseRange } from "../../lib/ip-range.ts";
import { scanAccountIds } from "../../store/admin-accounts.ts";
import { ROLE_NAMES, roleCan, roleOf } from "../accounts/roles.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";
import type { UserIp } from "../../model/auth.ts";
import type { PageQuery } from "../../model/paging.ts";

/** Admin account lists: 100 by default, at most 200 (API.md §9). */
export const ADMIN_ACCOUNTS_LIMIT = 100;

export interface AdminAccountView {
  account: AccountRecord;
  /** null for remote accounts */
  user: UserRecord | null;
  /** the addresses the user signed up and signed in from, most recent first (none for remote accounts) */
  ips: UserIp[];
}

/** An account as the staff see it: with its user and the addresses that user came from. */
export function adminAccountView(store: Store, account: AccountRecord, user?: UserRecord | null): AdminAccountView {
  const local = account.domain === null;
  return { account, user: user !== undefined ? user : local ? (getUser(store, account.id) ?? null) : null, ips: local ? userIps(store, account.id) : [] };
}

export type AccountStatusFilter = "active" | "pending" | "disabled" | "silenced" | "suspended" | "sensitized";
const STATUSES: readonly AccountStatusFilter[] = ["active", "pending", "disabled", "silenced", "suspended", "sensitized"];

export interface AccountFilter {
  origin?: "local" | "remote";
  status?: AccountStatusFilter;
  /** role ids (Role.id); the plain "everyone" role is no user's role id, as on Mastodon */
  roleIds?: string[];
  invitedBy?: string;
  username?: string;
  displayName?: string;
  byDomain?: string;
  email?: string;
  ip?: string;
}

/** The raw v2 parameters (every value as a client sent it). */
export interface V2Params {
  origin?: string;
  status?: string;
  permissions?: string;
  role_ids?: string | string[];
  invited_by?: string;
  username?: string;
  display_name?: string;
  by_domain?: string;
  email?: string;
  ip?: string;
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** The roles that count as staff: those that can handle reports (Mastodon's `permissions=staff`). */
export function staffRoleIds(): string[] {
  return ROLE_NAMES.filter((name) => name !== "User" && roleCan(name, "manage_reports")).map((name) => roleOf(name).id);
}

function checkedOrigin(value: string): "local" | "remote" {
  if (value === "local" || value === "remote") return value;
  throw new BadRequest(`Unknown origin: ${value}`);
}

function checkedStatus(value: string): AccountStatusFilter {
  if ((STATUSES as readonly string[]).includes(value)) return value as AccountStatusFilter;
  throw new BadRequest(`Unknown status: ${value}`);
}

/** The parameters v1 and v2 share, with the same names and meaning. */
type TextParams = Pick<V2Params, "username" | "display_name" | "by_domain" | "email" | "ip">;

/** Adds to `filter` each of the shared parameters that is present. */
function withTextParams(filter: AccountFilter, params: TextParams): AccountFilter {
  if (present(params.username)) filter.username = params.username;
  if (present(params.display_name)) filter.displayName = params.display_name;
  if (present(params.by_domain)) filter.byDomain = params.by_domain;
  if (present(params.email)) filter.email = params.email;
  if (present(params.ip)) filter.ip = params.ip;
  return filter;
}

/** v2: no defaults; an unknown origin or status is 400, as Mastodon's AccountFilter raises. */
export function v2Filter(params: V2Params): AccountFilter {
  const filter: AccountFilter = {};
  if (present(params.origin)) filter.origin = checkedOrigin(params.origin);
  if (present(params.status)) filter.status = checkedStatus(params.status);
  const roleIds = params.role_ids === undefined ? [] : Array.isArray(params.role_ids) ? params.role_ids : [params.role_ids];
  if (roleIds.some(present)) filter.roleIds = roleIds.filter(present);
  if (params.permissions === "staff") filter.roleIds = staffRoleIds();
  if (present(params.invited_by)) filter.invitedBy = params.invited_by;
  return withTextParams(filter, params);
}

/** The raw v1 parameters: flags that count when present with any non-empty value, as Rails' `present?`. */
export interface V1Params {
  local?: string;
  remote?: string;
  by_domain?: string;
  active?: string;
  pending?: string;
  disabled?: string;
  sensitized?: string;
  silenced?: string;
  suspended?: string;
  username?: string;
  display_name?: string;
  email?: string;
  ip?: string;
  staff?: string;
}

/**
 * v1: local and active unless the flags say otherwise (remote; the last of active, pending, disabled,
 * silenced, suspended given). Mastodon lists `sensitized` among v1's parameters but never applies it;
 * here it filters as v2's status=sensitized does.
 */
export function v1Filter(params: V1Params): AccountFilter {
  const filter: AccountFilter = { origin: present(params.remote) ? "remote" : "local", status: "active" };
  for (const status of ["active", "pending", "disabled", "silenced", "suspended", "sensitized"] as const) {
    if (present(params[status])) filter.status = status;
  }
  if (present(params.staff)) filter.roleIds = staffRoleIds();
  return withTextParams(filter, params);
}

/** Needs a user record to match (so only local accounts can). */
function needsUser(filter: AccountFilter): boolean {
  return (
    filter.origin === "local" ||
    filter.status === "pending" ||
    filter.status === "disabled" ||
    filter.roleIds !== undefined ||
    filter.invitedBy !== undefined ||
    filter.email !== undefined ||
    filter.ip !== undefined
  );
}

/** A matcher for one request: the texts prepared once, every account tested against them. */
function matcher(store: Store, filter: AccountFilter): (account: AccountRecord, user: UserRecord | null) => boolean {
  const username = filter.username?.trim().replace(/^@/, "").toLowerCase();
  const displayName = filter.displayName?.trim().toLowerCase();
  const email = filter.email?.trim().toLowerCase();
  const domain = filter.byDomain?.trim().toLowerCase();
  const roleIds = filter.roleIds ? new Set(filter.roleIds) : null;
  // An address or a CIDR range (Mastodon's inet containment); an unreadable one matches nobody, as on Mastodon.
  const ipRange = filter.ip === undefined ? undefined : parseRange(filter.ip);
  return (account, user) => {
    if (filter.origin === "local" && account.domain !== null) return false;
    if (filter.origin === "remote" && account.domain === null) return false;
    if (domain !== undefined && account.domain !== domain) return false;
    if (username !== undefined && !account.username.toLowerCase().startsWith(username)) return false;
    if (displayName !== undefined && !account.displayName.toLowerCase().startsWith(displayName)) return false;
    if (email !== undefined && !user?.email.startsWith(email)) return false;
    if (roleIds && (!user || user.role === "User" || !roleIds.has(roleOf(user.role).id))) return false;
    if (filter.invitedBy !== undefined) return false; // no invites on this server: nobody was invited
    if (ipRange !== undefined && (!ipRange || !userIps(store, account.id).some((used) => inRange(used.ip, ipRange)))) return false;
    switch (filter.status) {
      case "active":
        return !account.suspended;
      case "pending":
        return !!user && !user.approved;
      case "disabled":
        return !!user && user.disabled && !account.suspended;
      case "silenced":
        return account.silenced;
      case "suspended":
        return account.suspended;
      case "sensitized":
        return account.sensitized === true;
      default:
        return true;
    }
  };
}

/** A page of accounts matching the filter, newest first; the ids examined are bounded by the query's budget. */
export function adminAccountsPage(store: Store, filter: AccountFilter, query: PageQuery): AdminAccountView[] {
  const matches = matcher(store, filter);
  const source = needsUser(filter) ? "users" : "accounts";
  const found: AdminAccountView[] = [];
  const ids = scanAccountIds(store, source, query, (id) => {
    const account = getAccount(store, id);
    if (!account) return false;
    const user = account.domain === null ? (getUser(store, id) ?? null) : null;
    if (!matches(account, user)) return false;
    found.push(adminAccountView(store, account, user));
    return true;
  });
  // Kept in the scan's order: with min_id the scan went upwards and the ids came back reversed.
  const byId = new Map(found.map((view) => [view.account.id, view]));
  return ids.map((id) => byId.get(id)!);
}

/** One account for the staff, remote ones included; unknown ids are 404. */
export function findAdminAccount(deps: Pick<Deps, "store">, rawId: string): AdminAccountView {
  const id = normaliseId(rawId);
  const account = id ? getAccount(deps.store, id) : undefined;
  if (!account) throw new NotFound();
  return adminAccountView(deps.store, account);
}

/** Every local sign-up waiting for approval, newest first (`warren accounts approve|reject --all`). */
export function pendingSignUps(store: Store): AdminAccountView[] {
  return adminAccountsPage(store, { origin: "local", status: "pending" }, { limit: Infinity });
}
