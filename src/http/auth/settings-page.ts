// What every /settings/* page shares (docs/web.md): the session check (no session: to /auth/sign_in; a login
// not yet confirmed or approved: a 403 page), the CSRF check of its forms, and the nav between the pages.
import type { Deps } from "../../deps.ts";
import { checkSettingsSession } from "../../domain/auth/settings.ts";
import type { WebSession } from "../../domain/auth/web-sessions.ts";
import { ApiError } from "../../lib/errors.ts";
import { isStaff } from "../admin-pages/sections.ts";
import { browserOf, postedBrowser, readBrowser, type Browser } from "./browser.ts";
import { beforeBody, RefusedBeforeBody } from "../plugins/before-body.ts";
import { e, htmlPage, invalidFormPage, links, paragraph, seeOther } from "./layout.ts";
import type { RoleName } from "../../model/accounts.ts";

export const SETTINGS_PAGES: [href: string, text: string][] = [
  ["/settings/profile", "Profile"],
  ["/settings/preferences", "Preferences"],
  ["/settings/email", "E-mail"],
  ["/settings/password", "Password"],
  ["/settings/applications", "Applications"],
  ["/settings/sessions", "Sessions"],
  ["/settings/export", "Export"],
  ["/settings/import", "Import"],
  ["/settings/aliases", "Aliases"],
  ["/settings/migration", "Move account"],
  ["/settings/delete", "Delete account"],
];

/** The links between the settings pages, the current one marked for assistive technology; for staff, /admin too. */
export function settingsNav(current: string, role: RoleName): string {
  const items = SETTINGS_PAGES.map(([href, text]) => (href === current ? `<a href="${href}" aria-current="page">${text}</a>` : `<a href="${href}">${text}</a>`));
  if (isStaff(role)) items.push('<a href="/admin">Administration</a>');
  return `<nav aria-label="Settings">${items.join(" · ")}</nav>`;
}

export type SignedIn = { browser: Browser; session: WebSession };

/** The answer for a login that may not change settings yet. */
export const refusedPage = (siteTitle: string, title: string, error: ApiError) =>
  htmlPage(siteTitle, 403, title, `${paragraph(`${error.message}.`, "error")}${links([["/auth/sign_in", "Sign in"]])}`);

function gate(deps: Deps, title: string, browser: Browser): SignedIn | Response {
  if (!browser.session) return seeOther("/auth/sign_in", browser.cookies);
  try {
    checkSettingsSession(browser.session);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return refusedPage(deps.config.instanceTitle, title, error);
    throw error;
  }
  return { browser, session: browser.session };
}

/** A GET settings page: the signed-in browser, or the Response to send instead. */
export async function openSettings(deps: Deps, request: Request, title: string): Promise<SignedIn | Response> {
  return gate(deps, title, await browserOf(deps, request));
}

/** A settings form POST: as openSettings, and a 403 page when the CSRF token does not match. */
export async function postSettings(deps: Deps, request: Request, token: string | undefined, title: string): Promise<SignedIn | Response> {
  const browser = await postedBrowser(deps, request, token);
  if (!browser) return invalidFormPage(deps.config.instanceTitle);
  return gate(deps, title, browser);
}

/**
 * A settings form's transform hook that refuses before the body is read (before-body.ts), as its POST
 * would after: no live session → to /auth/sign_in, a login that may not change settings → the 403 page. The
 * CSRF token is in the body, so postSettings checks it after. For the forms that take large bodies (an upload).
 */
export function sessionBeforeBody(deps: Deps, title: string) {
  return beforeBody(async (context: { request: Request; sessionChecked?: boolean }) => {
    if (context.sessionChecked) return;
    context.sessionChecked = true;
    const signedIn = gate(deps, title, await readBrowser(deps, context.request));
    if (signedIn instanceof Response) throw new RefusedBeforeBody(signedIn);
  });
}

/** A settings page with the nav; `notice` is shown as a success (2xx) or an error. */
export function settingsPage(deps: Deps, signedIn: SignedIn, status: number, path: string, title: string, body: string, notice = ""): Response {
  const message = notice ? paragraph(notice, status < 300 ? "notice" : "error") : "";
  const who = `<p>Signed in as <strong>@${e(signedIn.session.account.username)}</strong>.</p>`;
  return htmlPage(deps.config.instanceTitle, status, title, `${settingsNav(path, signedIn.session.user.role)}${who}${message}${body}`, signedIn.browser.cookies);
}
