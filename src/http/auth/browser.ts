// The browser's state across the people-facing pages: the session (domain/auth/web-sessions.ts), shared with
// /oauth/authorize, which then asks only for consent, and the CSRF token of its forms (domain/oauth/csrf.ts):
// bound to the session once signed in, else to a nonce cookie. Both cookies are HttpOnly, SameSite=Lax and
// Secure when the instance URL is https. The session cookie's path is `/`; sessions set before were scoped to
// /oauth/authorize, so ending a session clears both. A session cookie naming no live session (ended, expired,
// or the old signed format) is cleared and reads as signed out.
import type { Server } from "elysia/universal";
import type { Deps } from "../../deps.ts";
import { findSession, SESSION_MAX_AGE_MS, startSession, touchSession, type WebSession } from "../../domain/auth/web-sessions.ts";
import { csrfToken, csrfValid, isCsrfNonce, newCsrfNonce, sessionCsrfToken, sessionCsrfValid } from "../../domain/oauth/csrf.ts";
import { signingSecret } from "../../domain/oauth/signing.ts";
import { requestAddress } from "../client-address.ts";
import { readCookie, setCookie } from "../oauth/request.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export const SESSION_COOKIE = "warren_session";
export const SESSION_COOKIE_PATH = "/";
const LEGACY_SESSION_PATH = "/oauth/authorize";
const CSRF_COOKIE = "warren_csrf";

const secure = (deps: Deps) => deps.config.url.startsWith("https:");

/** Signs the browser in: starts a session (ending `replacing`, this browser's current one) and returns its Set-Cookie. */
export async function beginSession(deps: Deps, request: Request, server: Server | null | undefined, account: AccountRecord, replacing: WebSession | null): Promise<string> {
  const origin = { ip: requestAddress(deps.config, request, server), userAgent: request.headers.get("user-agent") };
  const id = await startSession(deps, account, origin, replacing);
  return setCookie(SESSION_COOKIE, id, { path: SESSION_COOKIE_PATH, maxAgeSeconds: SESSION_MAX_AGE_MS / 1000, secure: secure(deps) });
}

/** Set-Cookie values that clear the session cookie, at its path and at the path sessions had before. */
export function endSessionCookies(deps: Deps): string[] {
  return [SESSION_COOKIE_PATH, LEGACY_SESSION_PATH].map((path) => setCookie(SESSION_COOKIE, "", { path, maxAgeSeconds: 0, secure: secure(deps) }));
}

export interface Browser {
  secret: string;
  /** The CSRF token for this page's forms. */
  csrf: string;
  /** Set-Cookie values to send with the page (a new CSRF nonce; clearing a dead session cookie). */
  cookies: string[];
  session: WebSession | null;
}

/** The session and CSRF token of a request, without noting a use of the session. */
export async function readBrowser(deps: Deps, request: Request): Promise<Browser> {
  const secret = await signingSecret(deps);
  let nonce = readCookie(request, CSRF_COOKIE);
  const cookies: string[] = [];
  if (!isCsrfNonce(nonce)) {
    nonce = newCsrfNonce();
    cookies.push(setCookie(CSRF_COOKIE, nonce, { path: "/", secure: secure(deps) }));
  }
  const cookie = readCookie(request, SESSION_COOKIE);
  const session = findSession(deps.store, cookie);
  if (cookie && !session) cookies.push(...endSessionCookies(deps));
  const csrf = session ? sessionCsrfToken(secret, session.raw) : csrfToken(secret, nonce);
  return { secret, csrf, cookies, session };
}

/** What a GET page needs: the session, and the CSRF token of its forms (a nonce is made when the browser has none). */
export async function browserOf(deps: Deps, request: Request): Promise<Browser> {
  const browser = await readBrowser(deps, request);
  if (browser.session) await touchSession(deps, browser.session);
  return browser;
}

/**
 * A form POST: null when its CSRF token is not this browser's. A signed-in browser's token must be bound to
 * its session; a nonce token (from before sign-in, or from a cookie someone else planted) is refused.
 */
export async function postedBrowser(deps: Deps, request: Request, token: string | undefined): Promise<Browser | null> {
  const browser = await readBrowser(deps, request);
  const valid = browser.session
    ? sessionCsrfValid(browser.secret, browser.session.raw, token)
    : csrfValid(browser.secret, readCookie(request, CSRF_COOKIE), token);
  if (!valid) return null;
  if (browser.session) await touchSession(deps, browser.session);
  return browser;
}
