// GET /admin/sign-ups, POST /admin/sign-ups/:id/approve|reject (docs/admin.md, "Pages"): the local sign-ups
// waiting for approval, with the reason each gave, approved or turned down through the admin API's functions
// (approveAccount, rejectAccount: manage_users, and only while the user is pending).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { approveAccount, rejectAccount } from "../../domain/admin/accounts-actions.ts";
import { pendingSignUps, type AdminAccountView } from "../../domain/admin/accounts-read.ts";
import { publicId } from "../../lib/ids.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, form } from "../auth/layout.ts";
import { CSRF_FIELD, Html, onlyStringBody } from "../auth/schemas.ts";
import { ADMIN_FORM_ANSWERS, ADMIN_PAGE_REFUSALS, adminPage, attempt, IdParams, openAdmin, postAdmin, SECTIONS, sentence, when, type Staffed } from "./page.ts";

const SECTION = SECTIONS.signUps;

export const adminSignUpPages = (deps: Deps) => {
  const item = (staffed: Staffed, { account, user }: AdminAccountView) => {
    const id = publicId(account.id);
    const reason = user?.reason ? `<blockquote>${e(user.reason)}</blockquote>` : `<p class="muted">No reason given.</p>`;
    return `<li><h2>@${e(account.username)}</h2><p>${e(user?.email ?? "")}, signed up ${when(user?.createdAt ?? account.createdAt)}.</p>${reason}
${form(`${SECTION.path}/${id}/approve`, staffed.browser.csrf, "", `Approve @${account.username}`)}
${form(`${SECTION.path}/${id}/reject`, staffed.browser.csrf, "", `Reject @${account.username}`)}</li>`;
  };
  const page = (staffed: Staffed, status: number, notice = "") => {
    const pending = pendingSignUps(deps.store);
    const list = pending.length ? `<ul>${pending.map((view) => item(staffed, view)).join("\n")}</ul>` : "<p>No sign-up is waiting for approval.</p>";
    return adminPage(deps, staffed, status, SECTION, list, notice);
  };
  const decide = (verb: "approve" | "reject") => async ({ body, params, request }: { body: { authenticity_token?: string }; params: { id: string }; request: Request }) => {
    const staffed = await postAdmin(deps, request, body.authenticity_token, SECTION);
    if (staffed instanceof Response) return staffed;
    const done = await attempt(() => (verb === "approve" ? approveAccount(deps, staffed.staff, params.id).then(() => undefined) : rejectAccount(deps, staffed.staff, params.id)));
    if ("error" in done) return page(staffed, done.error.status, sentence(done.error));
    return page(staffed, 200, verb === "approve" ? "The sign-up has been approved." : "The sign-up has been rejected and its account deleted.");
  };
  const options = (summary: string) => ({
    params: IdParams,
    body: t.Object({ ...CSRF_FIELD }),
    transform: onlyStringBody,
    response: { 200: Html("the list again with a notice"), ...ADMIN_FORM_ANSWERS },
    detail: { summary, tags: ["web"] },
  });

  return new Elysia({ name: "admin-sign-up-pages" })
    .use(cachePlugin)
    .get(SECTION.path, async ({ request }) => {
      const staffed = await openAdmin(deps, request, SECTION);
      return staffed instanceof Response ? staffed : page(staffed, 200);
    }, {
      response: { 200: Html("the sign-ups waiting for approval"), ...ADMIN_PAGE_REFUSALS },
      detail: { summary: "Pending sign-ups page (HTML; manage_users)", tags: ["web"] },
    })
    .post(`${SECTION.path}/:id/approve`, decide("approve"), options("Approve a pending sign-up (form; as POST /api/v1/admin/accounts/:id/approve)"))
    .post(`${SECTION.path}/:id/reject`, decide("reject"), options("Reject a pending sign-up (form; as POST /api/v1/admin/accounts/:id/reject)"));
};
