// Sessions of the web pages (/auth/*, /settings/*, /oauth/authorize; docs/web.md). Signing in starts one: a
// random id goes in the `warren_session` cookie and a record under its digest in the store
// (store/web-sessions.ts), so that signing out, a password change or reset, disabling, suspension and
// deletion end it on the server, and /settings/sessions can list and end each one.
// A session lasts at most a year and ends after two weeks unused (Devise's remember_for and a Mastodon-like
// idle timeout); a user keeps at most ten (Mastodon's MAX_SESSION_ACTIVATIONS), the oldest ending first.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { randomSecret, sha256 } from "../../lib/secrets.ts";
import { cleanText } from "../../lib/text.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import type { Store } from "../../store/db.ts";
import { findWebSessionById, getWebSession, putWebSession, removeWebSession, webSessionsOf } from "../../store/web-sessions.ts";
import { mayUseLogin } from "../oauth/sign-in.ts";
import type { Session } from "./settings.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { WebSessionRecord } from "../../model/auth.ts";

export const SESSION_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const MAX_SESSIONS_PER_USER = 10;
/** The last use is written at most this often: a page view is then a read, not a write. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
const MAX_USER_AGENT = 512;
/** randomSecret(32): 43 base64url characters. Anything else (the old signed format too) is no session. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** A live session: whose it is, and the cookie's id (the CSRF tokens of its forms are bound to it). */
export interface WebSession extends Session {
  raw: string;
  record: WebSessionRecord;
}

export interface SessionOrigin {
  ip: string | null;
  userAgent: string | null;
}

const alive = (record: WebSessionRecord, now: number) => now - record.createdAt < SESSION_MAX_AGE_MS && now - record.lastUsedAt < SESSION_IDLE_MS;

/** The session a cookie names, if it is live and its user may still sign in; reads only. */
export function findSession(store: Store, raw: string | undefined, now = Date.now()): WebSession | null {
  if (!raw || !SESSION_ID.test(raw)) return null;
  const record = getWebSession(store, sha256(raw));
  if (!record || !alive(record, now)) return null;
  const account = getAccount(store, record.accountId);
  const user = getUser(store, record.accountId);
  if (!account || !user || !mayUseLogin(account, user)) return null;
  return { account, user, raw, record };
}

/** Notes a use of the session (at most once per TOUCH_EVERY_MS), which keeps it from idling out. */
export async function touchSession(deps: Deps, session: WebSession, now = Date.now()): Promise<void> {
  if (now - session.record.lastUsedAt < TOUCH_EVERY_MS) return;
  await deps.store.write(() => {
    const current = getWebSession(deps.store, session.record.hash);
    if (current) putWebSession(deps.store, { ...current, lastUsedAt: now });
  });
}

/**
 * Starts a session for the account; `replacing` (this browser's current one, if any) ends with it, as do the
 * user's sessions past their time and the oldest beyond the limit. Returns the id for the cookie.
 */
export async function startSession(deps: Deps, account: AccountRecord, origin: SessionOrigin, replacing: WebSession | null, now = Date.now()): Promise<string> {
  const raw = randomSecret(32);
  const record: WebSessionRecord = {
    v: 1,
    hash: sha256(raw),
    id: newId(now),
    accountId: account.id,
    createdAt: now,
    lastUsedAt: now,
    ip: origin.ip,
    userAgent: cleanText(origin.userAgent ?? "").slice(0, MAX_USER_AGENT),
  };
  await deps.store.write(() => {
    if (replacing) removeWebSession(deps.store, replacing.record);
    const kept = webSessionsOf(deps.store, account.id).filter((s) => {
      if (alive(s, now)) return true;
      removeWebSession(deps.store, s);
      return false;
    });
    for (const old of kept.slice(0, Math.max(0, kept.length - (MAX_SESSIONS_PER_USER - 1)))) removeWebSession(deps.store, old);
    putWebSession(deps.store, record);
  });
  return raw;
}

/** Signing out: the session ends on the server. */
export async function endSession(deps: Deps, session: WebSession): Promise<void> {
  await deps.store.write(() => {
    const current = getWebSession(deps.store, session.record.hash);
    if (current) removeWebSession(deps.store, current);
  });
}

/** The sessions page's button: ends one of the user's own sessions; false when it names none. */
export async function endSessionById(deps: Deps, accountId: string, id: string): Promise<boolean> {
  return deps.store.write(() => {
    const session = /^\d{1,20}$/.test(id) ? findWebSessionById(deps.store, accountId, id) : undefined;
    if (!session) return false;
    removeWebSession(deps.store, session);
    return true;
  });
}

/** The user's live sessions, most recently used first. */
export function activeSessions(store: Store, accountId: string, now = Date.now()): WebSessionRecord[] {
  return webSessionsOf(store, accountId)
    .filter((s) => alive(s, now))
    .sort((a, b) => b.lastUsedAt - a.lastUsedAt || b.id.localeCompare(a.id));
}
