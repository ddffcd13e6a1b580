// Mastodon's user roles as a default installation seeds them (config/roles.yml + the "everyone" role).
// Warren has no role editor: the four roles are fixed, identified by name in UserRecord.role.
import type { RoleName } from "../../model/accounts.ts";

/** Mastodon's UserRole::FLAGS: permission bits, reported to clients as a decimal string. */
export const PERMISSIONS = {
  administrator: 1 << 0,
  view_devops: 1 << 1,
  view_audit_log: 1 << 2,
  view_dashboard: 1 << 3,
  manage_reports: 1 << 4,
  manage_federation: 1 << 5,
  manage_settings: 1 << 6,
  manage_blocks: 1 << 7,
  manage_taxonomies: 1 << 8,
  manage_appeals: 1 << 9,
  manage_users: 1 << 10,
  manage_invites: 1 << 11,
  manage_rules: 1 << 12,
  manage_announcements: 1 << 13,
  manage_custom_emojis: 1 << 14,
  manage_webhooks: 1 << 15,
  invite_users: 1 << 16,
  manage_roles: 1 << 17,
  manage_user_access: 1 << 18,
  delete_user_data: 1 << 19,
  view_feeds: 1 << 20,
  invite_bypass_approval: 1 << 21,
  manage_email_subscriptions: 1 << 22,
} as const;

export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.values(PERMISSIONS).reduce((a, b) => a | b, 0);
/** What the "everyone" role grants every user (Mastodon's Flags::DEFAULT). */
const EVERYONE = PERMISSIONS.invite_users;

function mask(...names: Permission[]): number {
  return names.reduce((bits, name) => bits | PERMISSIONS[name], 0);
}

export interface Role {
  /** Mastodon's ids in a fresh install: everyone is -99, then moderator, admin, owner in seed order. */
  id: string;
  /** The everyone role has an empty name in Mastodon. */
  name: string;
  color: string;
  /** Highlighted roles are shown as badges on profiles (Account.roles). */
  highlighted: boolean;
  position: number;
  /** Effective permissions: own bits | everyone's, and every bit for administrators. */
  permissions: number;
  collectionLimit: number;
}

function role(id: string, name: string, position: number, own: number, highlighted: boolean): Role {
  const bits = own | EVERYONE;
  return {
    id,
    name,
    color: "",
    highlighted,
    position,
    permissions: bits & PERMISSIONS.administrator ? ALL : bits,
    collectionLimit: 10,
  };
}

export const ROLES: Record<RoleName, Role> = {
  User: role("-99", "", -1, EVERYONE, false),
  Moderator: role(
    "1",
    "Moderator",
    10,
    mask("invite_users", "view_dashboard", "view_audit_log", "view_feeds", "manage_users", "manage_reports", "manage_taxonomies"),
    true,
  ),
  Admin: role(
    "2",
    "Admin",
    100,
    mask(
      "invite_users", "view_dashboard", "view_audit_log", "view_feeds", "manage_users", "manage_user_access",
      "delete_user_data", "manage_reports", "manage_taxonomies", "manage_federation", "manage_settings", "manage_blocks",
      "manage_appeals", "manage_rules", "manage_invites", "manage_announcements", "manage_custom_emojis",
      "manage_webhooks", "manage_roles",
    ),
    true,
  ),
  Owner: role("3", "Owner", 1000, PERMISSIONS.administrator, true),
};

export const ROLE_NAMES = Object.keys(ROLES) as RoleName[];

export function roleOf(name: RoleName | null | undefined): Role {
  return ROLES[name ?? "User"] ?? ROLES.User;
}

/** Mastodon's `role.can?(...)`: true when the role has any of the permissions. */
export function roleCan(name: RoleName | null | undefined, ...any: Permission[]): boolean {
  const bits = roleOf(name).permissions;
  return any.some((p) => (bits & PERMISSIONS[p]) === PERMISSIONS[p]);
}

/** Case-insensitive role name as an operator types it ("owner", "Admin"), or null. */
export function parseRoleName(raw: string): RoleName | null {
  return ROLE_NAMES.find((name) => name.toLowerCase() === raw.trim().toLowerCase()) ?? null;
}
