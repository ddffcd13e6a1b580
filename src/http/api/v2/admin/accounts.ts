// GET /api/v2/admin/accounts: Mastodon's AccountFilter as it is (origin, status, permissions, role_ids[],
// invited_by, username, display_name, by_domain, email, ip), no defaults; an unknown origin or status is 400.
// The single-account routes stay on v1 (../../v1/admin/accounts.ts).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { v2Filter } from "../../../../domain/admin/accounts-read.ts";
import { AdminAccountSchema } from "../../../../entities/admin-account.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { pagingQuery } from "../../../schemas.ts";
import { accountsList, adminErrors, READ } from "../../v1/admin/accounts.ts";

const text = (description: string) => t.Optional(t.String({ description }));

const V2Query = t.Object({
  ...pagingQuery,
  origin: text("local or remote"),
  status: text("active, pending, disabled, silenced, suspended or sensitized"),
  permissions: text("staff: moderators, admins and owners"),
  role_ids: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: "Role ids (role_ids[]=…)" })),
  invited_by: text("Invited by this user (Warren has no invites: matches nobody)"),
  username: text("Username starting with this (a leading @ is ignored)"),
  display_name: text("Display name starting with this"),
  by_domain: text("Accounts of exactly this domain"),
  email: text("E-mail address starting with this"),
  ip: text("Signed up or signed in from this address, or from an address in this CIDR range"),
});

export const adminAccountV2Routes = (deps: Deps) =>
  new Elysia({ name: "admin-account-v2-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v2/admin/accounts", ({ viewer, query, request, set }) => accountsList(deps, viewer, request, set, v2Filter(query), query), {
      admin: READ,
      query: V2Query,
      response: { 200: t.Array(AdminAccountSchema), ...adminErrors },
      detail: { summary: "Accounts for the staff, filtered as asked (no defaults), 100 by default, at most 200", tags: ["admin"] },
    });
