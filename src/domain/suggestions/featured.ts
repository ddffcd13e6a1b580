// Staff picks: accounts the operator suggests to everyone (`warren suggestions add|remove|list`), first in
// every viewer's suggestions, in the order they were picked. They pass the same exclusions as every other
// suggestion (a pick who is not discoverable, or whom the viewer follows, is not shown). The admin API will
// call these too.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { findAccountByAcct, getAccount } from "../../store/accounts.ts";
import { countFeatured, getFeatured, listFeatured, putFeatured, removeFeatured } from "../../store/suggestions.ts";
import { parseAcct } from "../accounts/read.ts";
import { unsuggestableReasons } from "./eligible.ts";
import { SOURCE_LIMITS } from "./sources.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** A known account by `username`, `@username` or `username@domain` (remote accounts must be known already). */
export function findPickAccount(deps: Deps, acct: string): AccountRecord {
  const parsed = parseAcct(deps, acct);
  const account = parsed ? findAccountByAcct(deps.store, parsed.username, parsed.domain) : undefined;
  if (!account) throw new NotFound(`No account ${acct}`);
  return account;
}

export interface Pick {
  account: AccountRecord;
  addedAt: number;
  /** why no one is shown this pick now (empty when it is shown) */
  notSuggested: string[];
}

function toPick(deps: Deps, account: AccountRecord, addedAt: number): Pick {
  return { account, addedAt, notSuggested: unsuggestableReasons(deps.store, account) };
}

/** Adds a staff pick; picking an account again keeps its place. */
export async function addFeatured(deps: Deps, acct: string): Promise<{ pick: Pick; added: boolean }> {
  const { store } = deps;
  const account = findPickAccount(deps, acct);
  const added = await store.write(() => {
    if (getFeatured(store, account.id)) return false;
    if (countFeatured(store) >= SOURCE_LIMITS.featured) {
      throw new Unprocessable(`At most ${SOURCE_LIMITS.featured} accounts may be staff picks`);
    }
    // Picks keep the order they were made in, even two within one millisecond.
    const latest = listFeatured(store, SOURCE_LIMITS.featured).reduce((max, pick) => Math.max(max, pick.addedAt), 0);
    putFeatured(store, { v: 1, accountId: account.id, addedAt: Math.max(Date.now(), latest + 1) });
    return true;
  });
  return { pick: toPick(deps, account, getFeatured(store, account.id)!.addedAt), added };
}

/** Removes a staff pick; 404 when the account is unknown or not a pick. */
export async function removeFeaturedAccount(deps: Deps, acct: string): Promise<AccountRecord> {
  const account = findPickAccount(deps, acct);
  const removed = await deps.store.write(() => removeFeatured(deps.store, account.id));
  if (!removed) throw new NotFound(`${acct} is not a staff pick`);
  return account;
}

/** Every staff pick, oldest first. */
export function featuredPicks(deps: Deps): Pick[] {
  const out: Pick[] = [];
  for (const record of listFeatured(deps.store, SOURCE_LIMITS.featured)) {
    const account = getAccount(deps.store, record.accountId);
    if (account) out.push(toPick(deps, account, record.addedAt));
  }
  return out;
}
