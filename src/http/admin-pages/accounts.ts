// GET /admin/accounts (search), GET /admin/accounts/:id, POST /admin/accounts/:id/action|lift (docs/admin.md,
// "Pages"): the admin accounts API's filter (v2Filter: username, display name, e-mail, domain, origin,
// status) and actions (performAccountAction, unsilence, unsuspend, unsensitive, enable), with its rules: the
// section needs manage_users; the domain checks the role over the account's and what each action allows.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { enableAccount, performAccountAction, unsensitiveAccount, unsilenceAccount, unsuspendAccount } from "../../domain/admin/accounts-actions.ts";
import { ADMIN_ACCOUNTS_LIMIT, adminAccountsPage, findAdminAccount, v2Filter, type AdminAccountView } from "../../domain/admin/accounts-read.ts";
import { BadRequest } from "../../lib/errors.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { boundedPageQuery } from "../plugins/paging.ts";
import { e, field, form } from "../auth/layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody, onlyStringQuery } from "../auth/schemas.ts";
import { ACTION_DONE, ActionBody, actionForm, actionInput } from "./action-form.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, IdParams, openAdmin, postAdmin, SECTIONS, select, sentence, when, type Staffed } from "./page.ts";
import { acct } from "./report-view.ts";

const SECTION = SECTIONS.accounts;

const SearchQuery = t.Object({
  username: Field("Username starting with this"),
  display_name: Field("Display name starting with this"),
  email: Field("E-mail address starting with this"),
  by_domain: Field("Accounts of this domain"),
  origin: Field("local or remote (both when empty)"),
  status: Field("active, pending, disabled, silenced, suspended or sensitized (any when empty)"),
});
type Search = typeof SearchQuery.static;

const LiftBody = t.Object({ ...CSRF_FIELD, what: Field("silence, suspend, sensitive or disable") });

const STATUS_OPTIONS = [["", "Any"], ["active", "Active"], ["pending", "Pending"], ["disabled", "Disabled"], ["silenced", "Limited"], ["suspended", "Suspended"], ["sensitized", "Media sensitive"]] as const;

/** What can be lifted, each through the admin API's own function. */
const LIFTS = {
  silence: { label: "Lift the limit", run: unsilenceAccount, done: "The limit is lifted." },
  suspend: { label: "Lift the suspension", run: unsuspendAccount, done: "The suspension is lifted." },
  sensitive: { label: "Stop marking the media sensitive", run: unsensitiveAccount, done: "The media is no longer forced sensitive." },
  disable: { label: "Enable the login", run: enableAccount, done: "The login is enabled again." },
} as const;

function accountStates({ account, user }: AdminAccountView): string[] {
  return [
    user && !user.approved ? "pending approval" : "",
    user?.disabled ? "login disabled" : "",
    account.silenced ? "limited" : "",
    account.suspended ? (account.dataDeletedAt ? "suspended, data deleted" : "suspended") : "",
    account.sensitized ? "media sensitive" : "",
  ].filter(Boolean);
}

const searchForm = (query: Search) => `<form method="get" action="${SECTION.path}">
${field({ name: "username", label: "Username", value: query.username, required: false })}
${field({ name: "email", label: "E-mail address", value: query.email, required: false })}
${field({ name: "by_domain", label: "Domain", value: query.by_domain, required: false })}
${select("origin", "Origin", [["", "Local and remote"], ["local", "Local"], ["remote", "Remote"]], query.origin)}
${select("status", "State", STATUS_OPTIONS, query.status)}
<button type="submit">Search</button></form>`;

function row(view: AdminAccountView): string {
  const states = accountStates(view);
  return `<li><a href="${SECTION.path}/${publicId(view.account.id)}">${e(acct(view.account))}</a>${view.user ? ` (${e(view.user.role)})` : ""}${states.length ? `: ${e(states.join(", "))}` : ""}</li>`;
}

export const adminAccountPages = (deps: Deps) => {
  const list = async (staffed: Staffed, query: Search) => {
    const found = await attempt(() => adminAccountsPage(deps.store, v2Filter(query), boundedPageQuery({}, ADMIN_ACCOUNTS_LIMIT)));
    if ("error" in found) return adminPage(deps, staffed, found.error.status, SECTION, searchForm(query), sentence(found.error));
    const items = found.ok.length ? `<ul>${found.ok.map(row).join("\n")}</ul>` : "<p>No account matches.</p>";
    return adminPage(deps, staffed, 200, SECTION, `${searchForm(query)}<h2>Accounts (newest first, at most ${ADMIN_ACCOUNTS_LIMIT})</h2>${items}`);
  };

  const detail = async (staffed: Staffed, rawId: string, status = 200, notice = "") => {
    const found = await attempt(() => findAdminAccount(deps, rawId));
    if ("error" in found) return adminPage(deps, staffed, 404, SECTION, `<p><a href="${SECTION.path}">All accounts</a></p>`, sentence(found.error));
    const view = found.ok;
    const { account, user } = view;
    const path = `${SECTION.path}/${publicId(account.id)}`;
    const facts = [
      user ? `<li>E-mail: ${e(user.email)}</li><li>Role: ${e(user.role)}</li>` : `<li>Remote account of ${e(account.domain ?? "")}</li>`,
      `<li>Created: ${when(account.createdAt)}</li>`,
      `<li>State: ${e(accountStates(view).join(", ") || "active")}</li>`,
      view.ips[0] ? `<li>Last address: ${e(view.ips[0].ip)}</li>` : "",
    ].join("");
    const applies = { silence: account.silenced, suspend: account.suspended, sensitive: account.sensitized, disable: !!user?.disabled };
    const lifts = (Object.keys(LIFTS) as (keyof typeof LIFTS)[]).filter((what) => applies[what])
      .map((what) => form(`${path}/lift`, staffed.browser.csrf, `<input type="hidden" name="what" value="${what}">`, LIFTS[what].label)).join("\n");
    const body = `<ul>${facts}</ul>${lifts}<h2>Act on this account</h2>${actionForm(`${path}/action`, staffed.browser.csrf, account)}`;
    return adminPage(deps, staffed, status, SECTION, body, notice, acct(account));
  };

  const change = (run: (staffed: Staffed, id: string, body: Record<string, string | undefined>) => Promise<string>) =>
    async ({ body, params, request }: { body: Record<string, string | undefined>; params: { id: string }; request: Request }) => {
      const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
      if (staffed instanceof Response) return staffed;
      const result = await attempt(() => run(staffed, params.id, body));
      return "error" in result ? detail(staffed, params.id, result.error.status, sentence(result.error)) : detail(staffed, params.id, 200, result.ok);
    };
  const formOptions = <B extends typeof ActionBody | typeof LiftBody>(summary: string, body: B) => ({
    params: IdParams,
    body,
    transform: onlyStringBody,
    response: { 200: Html("the account again with a notice"), ...ADMIN_FORM_ANSWERS },
    detail: { summary, tags: ["web"] },
  });

  return new Elysia({ name: "admin-account-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ query, request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : list(staffed, query);
    }, {
      query: SearchQuery,
      transform: onlyStringQuery,
      response: { 200: Html("the search form and the matching accounts"), ...ADMIN_PAGE_REFUSALS, 400: Html("the search form: an unknown origin or state") },
      detail: { summary: "Accounts search page (HTML; manage_users; the filter of GET /api/v2/admin/accounts)", tags: ["web"] },
    })
    .get(`${SECTION.path}/:id`, async ({ params, request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : detail(staffed, params.id);
    }, {
      params: IdParams,
      response: { 200: Html("the account, its state and its forms"), ...ADMIN_PAGE_REFUSALS, 404: Html("no such account") },
      detail: { summary: "One account (HTML; manage_users)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/action`, change(async (staffed, id, body) => {
      await performAccountAction(deps, staffed.staff, id, actionInput(body as typeof ActionBody.static));
      return ACTION_DONE[body.type ?? ""] ?? "Done.";
    }), formOptions("Act on an account: warn, sensitive, disable, limit or suspend (form; as POST /api/v1/admin/accounts/:id/action)", ActionBody))
    .post(`${SECTION.path}/:id/lift`, change(async (staffed, id, body) => {
      const lift = LIFTS[body.what as keyof typeof LIFTS];
      if (!lift || !Object.hasOwn(LIFTS, body.what ?? "")) throw new BadRequest("Unknown thing to lift");
      await lift.run(deps, staffed.staff, id);
      return lift.done;
    }), formOptions("Lift a limit, suspension, forced sensitivity or disabled login (form; as the API's unsilence, unsuspend, unsensitive, enable)", LiftBody));
};
