// Admin accounts (v1): GET /api/v1/admin/accounts (v1 flags), GET /api/v1/admin/accounts/:id, POST …/:id/
// approve|reject|enable|unsilence|unsuspend|unsensitive|action and DELETE …/:id. Scopes admin:read(:accounts)
// and admin:write(:accounts); the role permission each needs is Mastodon's (AccountPolicy, UserPolicy): the
// route checks what every caller needs, the domain what depends on the account (docs/admin.md).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import type { UserViewer } from "../../../../domain/auth/viewer.ts";
import {
  approveAccount,
  deleteAccountData,
  enableAccount,
  MAX_WARNING_TEXT,
  performAccountAction,
  rejectAccount,
  unsensitiveAccount,
  unsilenceAccount,
  unsuspendAccount,
} from "../../../../domain/admin/accounts-actions.ts";
import type { Staff } from "../../../../domain/admin/accounts-policy.ts";
import {
  ADMIN_ACCOUNTS_LIMIT,
  adminAccountsPage,
  findAdminAccount,
  v1Filter,
  type AccountFilter,
  type AdminAccountView,
} from "../../../../domain/admin/accounts-read.ts";
import { AdminAccountSchema, presentAdminAccount, type AdminAccount } from "../../../../entities/admin-account.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { boundedPageQuery, linkHeader } from "../../../plugins/paging.ts";
import { EmptyObject, ErrorBody, Flag, pagingQuery, toBool } from "../../../schemas.ts";

export const READ = { scopes: ["admin:read:accounts"], permission: "manage_users" } as const;
export const WRITE = { scopes: ["admin:write:accounts"], permission: "manage_users" } as const;
export const adminErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

const IdParams = t.Object({ id: t.String({ description: "Account id" }) });

export function staffOf(viewer: UserViewer): Staff {
  return { account: viewer.account, role: viewer.user.role };
}

const text = (description: string) => t.Optional(t.String({ description }));

/** The v1 flags: any non-empty value turns one on, as Rails' `present?` reads them. */
const V1Query = t.Object({
  ...pagingQuery,
  local: text("Local accounts (the default)"),
  remote: text("Remote accounts instead of local ones"),
  by_domain: text("Accounts of this domain"),
  active: text("Not suspended (the default)"),
  pending: text("Waiting for approval"),
  disabled: text("Their login is disabled"),
  sensitized: text("Their media is forced sensitive"),
  silenced: text("Limited"),
  suspended: text("Suspended"),
  username: text("Username starting with this"),
  display_name: text("Display name starting with this"),
  email: text("E-mail address starting with this"),
  ip: text("Signed up or signed in from this address, or from an address in this CIDR range"),
  staff: text("Moderators, admins and owners"),
});

/** The answer of both list routes: the page, presented, with its Link header (next when full, prev with min_id). */
export function accountsList(
  deps: Deps,
  viewer: UserViewer,
  request: Request,
  set: { headers: Record<string, unknown> },
  filter: AccountFilter,
  paging: { limit?: string; max_id?: string; since_id?: string; min_id?: string },
): AdminAccount[] {
  const query = boundedPageQuery(paging, ADMIN_ACCOUNTS_LIMIT);
  const page = adminAccountsPage(deps.store, filter, query);
  const link = linkHeader({
    baseUrl: deps.config.url,
    request,
    first: page[0]?.account.id,
    last: page.at(-1)?.account.id,
    next: page.length > 0 && page.length === query.limit,
    prevParam: "min_id",
    budget: query.budget,
  });
  if (link) set.headers["link"] = link;
  return page.map((view) => presentAdminAccount(deps.config, view, viewer.account.id));
}

const one = { params: IdParams, response: { 200: AdminAccountSchema, ...adminErrors } };
const done = { params: IdParams, response: { 200: EmptyObject, ...adminErrors } };

/** Deleting an account's data and acting on an account (warn, sensitive, disable, limit, suspend). */
const adminAccountActionRoutes = (deps: Deps) =>
  new Elysia({ name: "admin-account-action-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .delete(
      "/api/v1/admin/accounts/:id",
      async ({ viewer, params }) => {
        await deleteAccountData(deps, staffOf(viewer), params.id);
        return {};
      },
      {
        admin: { scopes: WRITE.scopes, permission: "delete_user_data" },
        ...done,
        detail: { summary: "Delete a suspended account's data now (403 unless suspended with its data kept)", tags: ["admin"] },
      },
    )
    .post(
      "/api/v1/admin/accounts/:id/action",
      async ({ viewer, params, body }) => {
        await performAccountAction(deps, staffOf(viewer), params.id, {
          type: body?.type,
          reportId: body?.report_id,
          warningPresetId: body?.warning_preset_id,
          text: body?.text,
          sendEmailNotification: body?.send_email_notification === undefined ? undefined : toBool(body.send_email_notification),
        });
        return {};
      },
      {
        admin: WRITE,
        params: IdParams,
        body: t.Optional(
          t.Object({
            type: t.Optional(t.String({ description: "none, sensitive, disable, silence or suspend (none and disable: local accounts only)" })),
            report_id: t.Optional(t.String({ description: "The report this action settles" })),
            warning_preset_id: t.Optional(t.String({ description: "A warning preset (Warren has none: 404)" })),
            text: t.Optional(t.String({ description: `The staff's words to the user (at most ${MAX_WARNING_TEXT} characters)` })),
            send_email_notification: t.Optional(Flag({ description: "Mail the user the warning (default true; local accounts)" })),
          }),
        ),
        response: { 200: EmptyObject, ...adminErrors },
        detail: { summary: "Act on an account: warn, mark sensitive, disable, limit or suspend", tags: ["admin"] },
      },
    );

export const adminAccountV1Routes = (deps: Deps) => {
  const present = (viewer: UserViewer, view: AdminAccountView) => presentAdminAccount(deps.config, view, viewer.account.id);
  return new Elysia({ name: "admin-account-v1-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .use(adminAccountActionRoutes(deps))
    .get(
      "/api/v1/admin/accounts",
      ({ viewer, query, request, set }) => accountsList(deps, viewer, request, set, v1Filter(query), query),
      {
        admin: READ,
        query: V1Query,
        response: { 200: t.Array(AdminAccountSchema), ...adminErrors },
        detail: { summary: "Accounts for the staff (v1 flags; local and active by default), 100 by default, at most 200", tags: ["admin"] },
      },
    )
    .get("/api/v1/admin/accounts/:id", ({ viewer, params }) => present(viewer, findAdminAccount(deps, params.id)), {
      admin: READ,
      ...one,
      detail: { summary: "One account for the staff, remote ones included", tags: ["admin"] },
    })
    .post("/api/v1/admin/accounts/:id/approve", async ({ viewer, params }) => present(viewer, await approveAccount(deps, staffOf(viewer), params.id)), {
      admin: WRITE,
      ...one,
      detail: { summary: "Approve a pending sign-up (403 unless local and pending)", tags: ["admin"] },
    })
    .post(
      "/api/v1/admin/accounts/:id/reject",
      async ({ viewer, params }) => {
        await rejectAccount(deps, staffOf(viewer), params.id);
        return {};
      },
      { admin: WRITE, ...done, detail: { summary: "Turn a pending sign-up down: the account is deleted (403 unless local and pending)", tags: ["admin"] } },
    )
    .post("/api/v1/admin/accounts/:id/enable", async ({ viewer, params }) => present(viewer, await enableAccount(deps, staffOf(viewer), params.id)), {
      admin: WRITE,
      ...one,
      detail: { summary: "Let a disabled local user sign in again", tags: ["admin"] },
    })
    .post("/api/v1/admin/accounts/:id/unsilence", async ({ viewer, params }) => present(viewer, await unsilenceAccount(deps, staffOf(viewer), params.id)), {
      admin: WRITE,
      ...one,
      detail: { summary: "Lift a limit", tags: ["admin"] },
    })
    .post("/api/v1/admin/accounts/:id/unsuspend", async ({ viewer, params }) => present(viewer, await unsuspendAccount(deps, staffOf(viewer), params.id)), {
      admin: WRITE,
      ...one,
      detail: { summary: "Lift a suspension while the account's data is still kept (403 otherwise)", tags: ["admin"] },
    })
    .post(
      "/api/v1/admin/accounts/:id/unsensitive",
      async ({ viewer, params }) => present(viewer, await unsensitiveAccount(deps, staffOf(viewer), params.id)),
      { admin: WRITE, ...one, detail: { summary: "Stop forcing the account's media sensitive", tags: ["admin"] } },
    );
};
