// Admin::Account (API.md §4.13; Mastodon's REST::Admin::AccountSerializer): an account as the staff see it,
// with its user's sign-in facts and the moderation states. Every key of Mastodon 4.6
// (reference/mastodon-4.6-keys.json). Remote accounts have no user: e-mail, locale and role are null and the
// user's flags false. `ip`/`ips`: the addresses of the user's sign-up and sign-ins (store/user-ips.ts).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { roleOf } from "../domain/accounts/roles.ts";
import type { AdminAccountView } from "../domain/admin/accounts-read.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount, presentRole, RoleSchema } from "./account.ts";
import { Nullable } from "./nullable.ts";

const IpSchema = t.Object({ ip: t.String(), used_at: t.String({ description: "ISO 8601 datetime" }) });

export const AdminAccountSchema = t.Object(
  {
    id: t.String(),
    username: t.String(),
    domain: Nullable(t.String({ description: "null for local accounts" })),
    created_at: t.String({ description: "ISO 8601 datetime the account was created or first seen" }),
    email: Nullable(t.String({ description: "Local accounts only" })),
    ip: Nullable(t.String({ description: "The address of the latest sign-up or sign-in" })),
    ips: t.Array(IpSchema, { description: "Addresses the user signed up and signed in from, most recent first" }),
    locale: Nullable(t.String()),
    invite_request: Nullable(t.String({ description: "The reason given at sign-up" })),
    role: Nullable(RoleSchema),
    confirmed: t.Boolean(),
    approved: t.Boolean(),
    disabled: t.Boolean(),
    sensitized: t.Boolean(),
    silenced: t.Boolean(),
    suspended: t.Boolean(),
    account: AccountSchema,
    created_by_application_id: t.Optional(t.String({ description: "Only when the user signed up through an app" })),
    invited_by_account_id: t.Optional(t.String({ description: "Only for invited users (Warren has no invites yet)" })),
  },
  { description: "Mastodon Admin::Account" },
);
export type AdminAccount = Static<typeof AdminAccountSchema>;

/** `viewerAccountId`: the staff member looking (the nested Account's feature_approval depends on it). */
export function presentAdminAccount(config: Config, view: AdminAccountView, viewerAccountId: string | null): AdminAccount {
  const { account, user } = view;
  const out: AdminAccount = {
    id: publicId(account.id),
    username: account.username,
    domain: account.domain,
    created_at: new Date(account.createdAt).toISOString(),
    email: user?.email ?? null,
    ip: view.ips[0]?.ip ?? null,
    ips: view.ips.map((used) => ({ ip: used.ip, used_at: new Date(used.usedAt).toISOString() })),
    locale: user?.locale ?? null,
    invite_request: user?.reason ?? null,
    role: user ? presentRole(roleOf(user.role)) : null,
    confirmed: !!user && user.confirmedAt !== null,
    approved: !!user && user.approved,
    disabled: !!user && user.disabled,
    sensitized: account.sensitized === true,
    silenced: account.silenced,
    suspended: account.suspended,
    account: presentAccount(config, account, viewerAccountId),
  };
  if (user?.createdByAppId) out.created_by_application_id = publicId(user.createdByAppId);
  return out;
}
