// Reading accounts as the public sees them: local accounts whose user is not yet approved or has not
// confirmed their e-mail address do not exist for anyone else (404, API.md §3.4).
import type { Deps } from "../../deps.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { normaliseId } from "../../lib/ids.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import type { Store } from "../../store/db.ts";
import { findAccountByAcct, getAccount, getUser } from "../../store/accounts.ts";
import { countFollowRequests } from "../../store/relationships.ts";
import { VersionedCache } from "../caches/versioned.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** GET /api/v1/accounts?id[]= takes at most this many ids. */
export const MAX_ACCOUNT_IDS = 40;

/** Remote accounts are always visible; local ones once approved and confirmed. */
export function accountVisible(store: Store, account: AccountRecord): boolean {
  if (account.domain !== null) return true;
  const user = getUser(store, account.id);
  return !!user && user.approved && user.confirmedAt !== null;
}

/** The account behind a client-supplied id; malformed, unknown and hidden ids are all 404. */
export function findVisibleAccount(deps: Deps, rawId: string): AccountRecord {
  const id = normaliseId(rawId);
  const account = id ? getAccount(deps.store, id) : undefined;
  if (!account || !accountVisible(deps.store, account)) throw new NotFound();
  return account;
}

/** The account `account` moved to, for the Account entity's `moved` (a local account's move, or a remote one's
 * `movedTo` confirmed by the target's `alsoKnownAs`); null when it has not moved or the target is gone or hidden. */
export function movedTargetOf(deps: Deps, account: AccountRecord): AccountRecord | null {
  const target = account.movedToAccountId ? getAccount(deps.store, account.movedToAccountId) : undefined;
  return target && !target.suspended && accountVisible(deps.store, target) ? target : null;
}

/** Several accounts in the order asked for, duplicates once, unknown or hidden ones left out. */
export function findVisibleAccounts(deps: Deps, rawIds: readonly string[]): AccountRecord[] {
  const asked = [...new Set(rawIds.map((raw) => normaliseId(raw) ?? raw))];
  if (asked.length > MAX_ACCOUNT_IDS) throw new Unprocessable(`Validation failed: too many ids requested (maximum is ${MAX_ACCOUNT_IDS})`);
  const out: AccountRecord[] = [];
  // Only normalised ids are looked up: anything else (words, absurdly long digit strings) is simply unknown.
  for (const id of asked.filter((raw) => normaliseId(raw) === raw)) {
    const account = getAccount(deps.store, id);
    if (account && accountVisible(deps.store, account)) out.push(account);
  }
  return out;
}

/** Splits `user`, `@user`, `user@domain` or `acct:user@domain`; the instance's own domain means local. */
export function parseAcct(deps: Deps, acct: string): { username: string; domain: string | null } | null {
  const text = acct.trim().replace(/^acct:/i, "").replace(/^@/, "");
  const [username, domain, ...rest] = text.split("@");
  if (!username || rest.length > 0 || domain === "") return null;
  const local = domain === undefined || domain.toLowerCase() === deps.config.domain.toLowerCase();
  return { username, domain: local ? null : domain.toLowerCase() };
}

/** An already-known account by its acct; never resolves remote accounts (that is search's job). */
export function lookupAccount(deps: Deps, acct: string): AccountRecord {
  const parsed = parseAcct(deps, acct);
  const account = parsed ? findAccountByAcct(deps.store, parsed.username, parsed.domain) : undefined;
  if (!account || !accountVisible(deps.store, account)) throw new NotFound();
  return account;
}

/** What CredentialAccount shows besides the account and user records. */
export function credentialExtras(deps: Deps, accountId: string): { followRequestsCount: number } {
  // Mastodon caps the count at 40: counting further would be wasted work.
  return { followRequestsCount: countFollowRequests(deps.store, accountId, 40) };
}

// A viewer object is handed out while its token and what its account sees are unchanged (auth/viewer.ts),
// and a follow request bumps what its target sees, so extras kept beside the viewer object are exact for as
// long as that object is handed out (verify_credentials is the most frequent call of all).
const extrasByViewer = new WeakMap<UserViewer, { followRequestsCount: number }>();

export function viewerCredentialExtras(deps: Deps, viewer: UserViewer): { followRequestsCount: number } {
  let extras = extrasByViewer.get(viewer);
  if (!extras) extrasByViewer.set(viewer, (extras = credentialExtras(deps, viewer.account.id)));
  return extras;
}

const MAX_ACCOUNTS = 10_000;
const accountRecords = new VersionedCache<AccountRecord | null>("accounts", MAX_ACCOUNTS);

/**
 * An account record by id, the same object while the account is unchanged: pages presented meanwhile share
 * it, so a client re-reading a thread or a timeline does not decode (or present) the same authors again.
 */
export function cachedAccount(store: Store, id: string): AccountRecord | null {
  // getAccount's read names the account's version itself.
  return accountRecords.get(store, id, () => ({ value: getAccount(store, id) ?? null, depends: [] })).value;
}

