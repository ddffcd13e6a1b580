// Browser sessions of the web pages (domain/auth/web-sessions.ts): the cookie holds a random id, the store only
// its SHA-256 digest, as with access tokens, so a copy of the data directory signs nobody in. Each user's
// sessions are also listed under [accountId, publicId]; the public id (a snowflake) names a session on the
// sessions page without revealing the cookie.
import { END, type Store } from "./handle.ts";
import type { WebSessionRecord } from "../model/auth.ts";

export function getWebSession(store: Store, hash: string): WebSessionRecord | undefined {
  return store.db.webSessions.get(["s", hash]);
}

/** Inside a write: stores a new session, or its new state (last use). */
export function putWebSession(store: Store, session: WebSessionRecord): void {
  store.db.webSessions.put(["s", session.hash], session);
  store.db.webSessions.put(["a", session.accountId, session.id], session.hash);
}

/** A user's sessions, oldest first. */
export function webSessionsOf(store: Store, accountId: string): WebSessionRecord[] {
  const out: WebSessionRecord[] = [];
  for (const { value } of store.db.webSessions.getRange({ start: ["a", accountId], end: ["a", accountId, END] })) {
    const session = getWebSession(store, value as string);
    if (session) out.push(session);
  }
  return out;
}

/** The session a user's list names by its public id. */
export function findWebSessionById(store: Store, accountId: string, id: string): WebSessionRecord | undefined {
  const hash = store.db.webSessions.get(["a", accountId, id]) as string | undefined;
  return hash ? getWebSession(store, hash) : undefined;
}

/** Inside a write. */
export function removeWebSession(store: Store, session: WebSessionRecord): void {
  store.db.webSessions.remove(["s", session.hash]);
  store.db.webSessions.remove(["a", session.accountId, session.id]);
}

/** Inside a write: ends every session of the user, but the one whose digest is `keepHash`. */
export function removeWebSessionsOf(store: Store, accountId: string, keepHash?: string): void {
  for (const session of webSessionsOf(store, accountId)) if (session.hash !== keepHash) removeWebSession(store, session);
}
