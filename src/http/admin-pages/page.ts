// What every /admin page shares (docs/admin.md, "Pages"): the settings pages' session and CSRF checks, then the
// role's permission for the page's section (Mastodon's role permissions, domain/accounts/roles.ts), the nav
// listing only the sections the role may open, and domain refusals (403, 404, 422) shown as the page again.
import { t } from "elysia";
import type { Deps } from "../../deps.ts";
import type { Staff } from "../../domain/admin/accounts-policy.ts";
import { roleCan } from "../../domain/accounts/roles.ts";
import { ApiError } from "../../lib/errors.ts";
import { e, htmlPage, paragraph } from "../auth/layout.ts";
import { Html, Redirect } from "../auth/schemas.ts";
import { openSettings, postSettings, type SignedIn } from "../auth/settings-page.ts";
import { HOME, SECTIONS, sectionsFor, type AdminSection } from "./sections.ts";
import type { RoleName } from "../../model/accounts.ts";

export { HOME, SECTIONS, sectionsFor, type AdminSection };

export interface Staffed extends SignedIn {
  staff: NonNullable<Staff>;
}

/** The refusal of a signed-in person whose role does not permit the section. */
function notPermitted(deps: Deps, signedIn: SignedIn, section: AdminSection): Response {
  const body = `${paragraph("This action is not allowed: your role does not permit this page.", "error")}<nav><a href="/settings/profile">Settings</a></nav>`;
  return htmlPage(deps.config.instanceTitle, 403, section.title, body, signedIn.browser.cookies);
}

function permitted(deps: Deps, signedIn: SignedIn | Response, section: AdminSection): Staffed | Response {
  if (signedIn instanceof Response) return signedIn;
  const role = signedIn.session.user.role;
  if (!roleCan(role, ...section.permissions)) return notPermitted(deps, signedIn, section);
  return { ...signedIn, staff: { account: signedIn.session.account, role } };
}

/** A GET admin page: the staff member, or the Response to send instead (to sign in, or a 403 page). */
export async function openAdmin(deps: Deps, request: Request, section: AdminSection): Promise<Staffed | Response> {
  return permitted(deps, await openSettings(deps, request, section.title), section);
}

/** An admin form POST: as openAdmin, after the settings pages' CSRF check (403 "Invalid form"). */
export async function postAdmin(deps: Deps, request: Request, token: string | undefined, section: AdminSection): Promise<Staffed | Response> {
  return permitted(deps, await postSettings(deps, request, token, section.title), section);
}

function adminNav(role: RoleName, current: string): string {
  const items = [HOME, ...sectionsFor(role)].map((s) => (s.path === current ? `<a href="${s.path}" aria-current="page">${e(s.title)}</a>` : `<a href="${s.path}">${e(s.title)}</a>`));
  return `<nav aria-label="Administration">${items.join(" · ")} · <a href="/settings/profile">Settings</a></nav>`;
}

/** An admin page with the nav; `notice` is a success (2xx) or an error. */
export function adminPage(deps: Deps, staffed: Staffed, status: number, section: AdminSection, body: string, notice = "", title = section.title): Response {
  const message = notice ? paragraph(notice, status < 300 ? "notice" : "error") : "";
  const who = `<p class="muted">Signed in as <strong>@${e(staffed.session.account.username)}</strong> (${e(staffed.staff.role)}).</p>`;
  return htmlPage(deps.config.instanceTitle, status, title, `${adminNav(staffed.staff.role, section.path)}${who}${message}${body}`, staffed.browser.cookies);
}

/** Runs a domain call; a refusal the person can act on (400, 403, 404, 422) comes back as the error to show. */
export async function attempt<T>(action: () => Promise<T> | T): Promise<{ ok: T } | { error: ApiError }> {
  try {
    return { ok: await action() };
  } catch (error) {
    if (error instanceof ApiError && [400, 403, 404, 422].includes(error.status)) return { error };
    throw error;
  }
}

/** The message of a refusal as a sentence. */
export const sentence = (error: ApiError) => (/[.!?]$/.test(error.message) ? error.message : `${error.message}.`);

export const IdParams = t.Object({ id: t.String({ description: "Record id, as the admin API shows it" }) });

/** What an admin page answers instead of itself. */
export const ADMIN_PAGE_REFUSALS = {
  303: Redirect("not signed in: to /auth/sign_in"),
  403: Html("the login is unconfirmed or pending approval, or the role does not permit this page"),
};

/** The same for an admin form, and the page again with the domain's refusal. */
export const ADMIN_FORM_ANSWERS = {
  303: Redirect("not signed in: to /auth/sign_in"),
  400: Html("the page again: a value the form does not offer"),
  403: Html("CSRF check failed, the role does not permit this page, or the domain refused the action for this record"),
  404: Html("the page again: no such record"),
  422: Html("the page again, with the problem"),
};

/** A checkbox with its label, "1" when ticked. */
export const checkbox = (name: string, label: string, checked = false) =>
  `<label class="check"><input type="checkbox" name="${name}" value="1"${checked ? " checked" : ""}> ${e(label)}</label>`;

/** A <select> with its label. */
export function select(name: string, label: string, options: readonly (readonly [value: string, text: string])[], selected = ""): string {
  const items = options.map(([value, text]) => `<option value="${e(value)}"${value === selected ? " selected" : ""}>${e(text)}</option>`).join("");
  return `<label for="${name}">${e(label)}</label>\n<select id="${name}" name="${name}">${items}</select>`;
}

/** A <textarea> with its label. */
export const textarea = (name: string, label: string, maxLength: number, value = "") =>
  `<label for="${name}">${e(label)}</label>\n<textarea id="${name}" name="${name}" rows="3" maxlength="${maxLength}">${e(value)}</textarea>`;

export const when = (ms: number | null) => (ms === null ? "never" : `${new Date(ms).toISOString().replace("T", " ").slice(0, 16)} UTC`);
