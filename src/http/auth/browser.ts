// The browser's state across the people-facing pages: the CSRF nonce cookie of the forms and the session cookie
// (domain/oauth/session.ts), shared with /oauth/authorize, which then asks only for consent. Both are HttpOnly,
// SameSite=Lax and Secure when the instance URL is https. The session cookie's path is `/`; sessions set before
// were scoped to /oauth/authorize, so signing out clears both.
import type { Deps } from "../../deps.ts";
import { csrfToken, csrfValid, isCsrfNonce, newCsrfNonce } from "../../domain/oauth/csrf.ts";
import { SESSION_LIFETIME_MS, sessionCookieValue, sessionFromCookie } from "../../domain/oauth/session.ts";
import { signingSecret } from "../../domain/oauth/signing.ts";
import type { AccountRecord, UserRecord } from "../../store/records.ts";
import { readCookie, setCookie } from "../oauth/request.ts";

export const SESSION_COOKIE = "warren_session";
export const SESSION_COOKIE_PATH = "/";
const LEGACY_SESSION_PATH = "/oauth/authorize";
const CSRF_COOKIE = "warren_csrf";

const secure = (deps: Deps) => deps.config.url.startsWith("https:");

export function sessionCookie(deps: Deps, secret: string, account: AccountRecord, user: UserRecord): string {
  return setCookie(SESSION_COOKIE, sessionCookieValue(secret, account, user), {
    path: SESSION_COOKIE_PATH,
    maxAgeSeconds: SESSION_LIFETIME_MS / 1000,
    secure: secure(deps),
  });
}

/** Set-Cookie values that end the session, at its path and at the path sessions had before. */
export function endSessionCookies(deps: Deps): string[] {
  return [SESSION_COOKIE_PATH, LEGACY_SESSION_PATH].map((path) => setCookie(SESSION_COOKIE, "", { path, maxAgeSeconds: 0, secure: secure(deps) }));
}

export interface Browser {
  secret: string;
  /** The CSRF token for this page's forms. */
  csrf: string;
  /** Set-Cookie values to send with the page (a new CSRF nonce). */
  cookies: string[];
  session: { account: AccountRecord; user: UserRecord } | null;
}

/** What a GET page needs: the session, and a CSRF nonce (made when the browser has none). */
export async function browserOf(deps: Deps, request: Request): Promise<Browser> {
  const secret = await signingSecret(deps);
  let nonce = readCookie(request, CSRF_COOKIE);
  const cookies: string[] = [];
  if (!isCsrfNonce(nonce)) {
    nonce = newCsrfNonce();
    cookies.push(setCookie(CSRF_COOKIE, nonce, { path: "/", secure: secure(deps) }));
  }
  const session = sessionFromCookie(deps.store, secret, readCookie(request, SESSION_COOKIE));
  return { secret, csrf: csrfToken(secret, nonce), cookies, session };
}

/** A form POST: null when its CSRF token does not match the browser's nonce. */
export async function postedBrowser(deps: Deps, request: Request, token: string | undefined): Promise<Browser | null> {
  const browser = await browserOf(deps, request);
  return csrfValid(browser.secret, readCookie(request, CSRF_COOKIE), token) ? browser : null;
}
