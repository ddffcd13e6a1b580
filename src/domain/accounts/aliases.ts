// /settings/aliases (docs/web.md, docs/federation.md "Moving accounts"): the accounts this one is also known
// as. An account elsewhere may move here only once this one lists it: its `Move` is checked against our
// actor's `alsoKnownAs`. The address is resolved (WebFinger, then the actor) when added, as Mastodon's
// AccountAlias does; what is kept is the actor URI. A change goes out as an Update of the actor.
import type { Deps } from "../../deps.ts";
import { findAccountByAcct, findAccountByUri, getAccount, putAccount } from "../../store/accounts.ts";
import { checkSettingsSession, type Session } from "../auth/settings.ts";
import { recordEvent } from "../events.ts";
import { parseAcct } from "./read.ts";
import { Problems } from "./validation.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** At most this many aliases (remote actors' lists are cut to the same length). */
export const MAX_ALIASES = 16;

export interface AccountAlias {
  uri: string;
  /** `user@domain` when the account is known here, else the URI. */
  acct: string;
}

/** `user@domain`, local accounts under this server's domain. */
export const fullAcct = (deps: Deps, account: AccountRecord) => `${account.username}@${account.domain ?? deps.config.domain}`;

export function aliasesOf(deps: Deps, account: AccountRecord): AccountAlias[] {
  return (account.alsoKnownAs ?? []).map((uri) => {
    const known = findAccountByUri(deps.store, uri);
    return { uri, acct: known ? fullAcct(deps, known) : uri };
  });
}

/** The account an address typed in a settings form names: local, or remote resolved afresh (null: none). */
export async function resolveAcct(deps: Deps, acct: string, refetch: boolean): Promise<AccountRecord | null> {
  const parsed = parseAcct(deps, acct);
  if (!parsed) return null;
  if (parsed.domain === null) return findAccountByAcct(deps.store, parsed.username, null) ?? null;
  return deps.remote.account(deps, parsed.username, parsed.domain, refetch);
}

/** Adds the account `acct` names; a 422 (Problems on `acct`) when it cannot be resolved, is this account, is
 * already listed or the list is full. */
export async function addAlias(deps: Deps, session: Session, acct: string): Promise<AccountRecord> {
  checkSettingsSession(session);
  const problems = new Problems();
  const found = acct.trim() ? await resolveAcct(deps, acct, false) : null;
  const current = session.account.alsoKnownAs ?? [];
  if (!found || found.suspended) problems.add("acct", "ERR_INVALID", "can't be resolved to an account");
  else if (found.id === session.account.id) problems.add("acct", "ERR_INVALID", "cannot be your own account");
  else if (current.includes(found.uri)) problems.add("acct", "ERR_TAKEN", "is already an alias");
  else if (current.length >= MAX_ALIASES) problems.add("acct", "ERR_TOO_MANY", `has too many aliases (maximum is ${MAX_ALIASES})`);
  problems.throwIfAny();
  return changeAliases(deps, session.account.id, (uris) => (uris.includes(found!.uri) ? uris : [...uris, found!.uri]));
}

/** Removes the alias `uri` (nothing when it is not listed). */
export async function removeAlias(deps: Deps, session: Session, uri: string): Promise<AccountRecord> {
  checkSettingsSession(session);
  return changeAliases(deps, session.account.id, (uris) => uris.filter((listed) => listed !== uri));
}

async function changeAliases(deps: Deps, accountId: string, change: (uris: string[]) => string[]): Promise<AccountRecord> {
  return deps.store.write(() => {
    const account = getAccount(deps.store, accountId)!;
    const before = account.alsoKnownAs ?? [];
    const after = change(before);
    if (after.length === before.length && after.every((uri, i) => uri === before[i])) return account;
    const updated = { ...account, alsoKnownAs: after };
    putAccount(deps.store, updated);
    recordEvent(deps, "account.updated", { accountId });
    return updated;
  });
}
