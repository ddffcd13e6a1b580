// /settings/applications (docs/web.md): the OAuth applications holding live tokens for the signed-in user
// (Mastodon's "Authorized apps"), and revoking one: every token it holds for this user, nobody else's.
import type { Deps } from "../../deps.ts";
import { getApp, revokeToken, tokensOf } from "../../store/oauth.ts";
import { checkSettingsSession, type Session } from "./settings.ts";
import type { AppRecord } from "../../model/auth.ts";

export interface AuthorisedApp {
  app: AppRecord;
  /** Every scope granted to any of its live tokens. */
  scopes: string[];
  /** When the first of its live tokens was issued. */
  since: number;
}

/** The apps with live tokens for the account, oldest authorisation first. */
export function authorisedApps(deps: Pick<Deps, "store">, accountId: string): AuthorisedApp[] {
  const byApp = new Map<string, AuthorisedApp>();
  for (const token of tokensOf(deps.store, accountId)) {
    if (token.accountId !== accountId) continue;
    const app = getApp(deps.store, token.appId);
    if (!app) continue;
    const entry = byApp.get(app.id) ?? { app, scopes: [], since: token.createdAt };
    for (const scope of token.scopes) if (!entry.scopes.includes(scope)) entry.scopes.push(scope);
    entry.since = Math.min(entry.since, token.createdAt);
    byApp.set(app.id, entry);
  }
  return [...byApp.values()].sort((a, b) => a.since - b.since);
}

/** Revokes every token of `appId` for the session's user; returns how many. An unknown app revokes nothing. */
export async function revokeAuthorisedApp(deps: Deps, session: Session, appId: string, now = Date.now()): Promise<number> {
  checkSettingsSession(session);
  const accountId = session.account.id;
  return deps.store.write(() => {
    let revoked = 0;
    for (const token of tokensOf(deps.store, accountId)) {
      if (token.appId !== appId || token.accountId !== accountId) continue;
      revokeToken(deps.store, token, now);
      revoked++;
    }
    return revoked;
  });
}
