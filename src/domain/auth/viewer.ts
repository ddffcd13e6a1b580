// Who is calling: the access token, its application and (for user tokens) the account and user.
import { Forbidden, Unprocessable } from "../../lib/errors.ts";
import { sha256 } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { VersionedCache, type Stamp } from "../caches/versioned.ts";
import { versionName } from "../../store/versions.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { findToken, getApp } from "../../store/oauth.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";
import type { AppRecord, TokenRecord } from "../../model/auth.ts";

export interface Viewer {
  token: TokenRecord;
  app: AppRecord;
  /** null for app tokens (client_credentials) */
  account: AccountRecord | null;
  user: UserRecord | null;
  scopes: readonly string[];
}

export interface UserViewer extends Viewer {
  account: AccountRecord;
  user: UserRecord;
}

// Keyed by the token as sent (it is in this process's memory with every request anyway): a hit costs no hash.
const MAX_VIEWERS = 10_000;
const viewers = new VersionedCache<Viewer | null>("viewers", MAX_VIEWERS);
// By viewer object, which the cache above replaces whenever one of its versions moves.
const stamps = new WeakMap<Viewer, Stamp>();

/**
 * The viewer behind a bearer token, or null when the token is unknown or revoked. Kept while the token, its
 * account and what the account sees (its user record) are unchanged (records are never mutated in place, so
 * sharing them is safe).
 */
export function viewerFromToken(store: Store, rawToken: string): Viewer | null {
  const { value, stamp } = viewers.get(store, rawToken, () => {
    const hash = sha256(rawToken);
    const viewer = loadViewer(store, hash);
    const accountId = viewer?.account?.id;
    return { value: viewer, depends: accountId ? [versionName.token(hash), versionName.viewer(accountId)] : [versionName.token(hash)] };
  });
  if (value) stamps.set(value, stamp);
  return value;
}

/**
 * The versions `viewer` was resolved at: something kept for this viewer (a timeline page) is only valid
 * while they are unchanged.
 */
export function viewerStamp(viewer: Viewer): Stamp | undefined {
  return stamps.get(viewer);
}

function loadViewer(store: Store, hash: string): Viewer | null {
  const token = findToken(store, hash);
  if (!token || token.revokedAt) return null;
  const app = getApp(store, token.appId);
  if (!app) return null;
  if (!token.accountId) return { token, app, account: null, user: null, scopes: token.scopes };
  const account = getAccount(store, token.accountId);
  const user = getUser(store, token.accountId);
  if (!account || !user) return null;
  return { token, app, account, user, scopes: token.scopes };
}

/** Mastodon's `require_user!`: a signed-in, confirmed, approved, enabled user (API.md §1.1). */
export function requireUser(viewer: Viewer): UserViewer {
  const { user, account } = viewer;
  if (!user || !account) throw new Unprocessable("This method requires an authenticated user");
  if (!user.confirmedAt) throw new Forbidden("Your login is missing a confirmed e-mail address");
  if (!user.approved) throw new Forbidden("Your login is currently pending approval");
  // A moved account is not `functional?` for Mastodon either: its API answers 403 until the redirect is
  // cancelled; the settings pages (export, aliases, migration) stay open to it.
  if (user.disabled || account.suspended || account.movedToAccountId) throw new Forbidden("Your login is currently disabled");
  return viewer as UserViewer;
}
