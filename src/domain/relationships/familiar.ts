// GET /api/v1/accounts/familiar_followers: for each account asked about, the accounts the viewer follows that
// follow it too ("followed by people you know"). Suspended, hidden and blocked-either-way accounts are
// left out, and so are followers who hide their network (hide_collections).
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import { blockedEitherWay, followingIdsOf, isFollowing } from "../../store/relationships.ts";
import { accountVisible } from "../accounts/read.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** Mastodon answers for at most this many ids, and reads this many of the viewer's follows per id. */
export const MAX_FAMILIAR_IDS = 40;
const FOLLOWS_EXAMINED = 5_000;

export interface FamiliarFollowers {
  id: string;
  accounts: AccountRecord[];
}

export function familiarFollowers(deps: Deps, viewerId: string, rawIds: readonly string[]): FamiliarFollowers[] {
  const { store } = deps;
  const follows: string[] = [];
  for (const id of followingIdsOf(store, viewerId)) {
    if (follows.length >= FOLLOWS_EXAMINED) break;
    follows.push(id);
  }
  const shown = (account: AccountRecord | undefined): account is AccountRecord =>
    !!account && !account.suspended && !account.hideCollections && accountVisible(store, account) && !blockedEitherWay(store, viewerId, account.id);
  const out: FamiliarFollowers[] = [];
  const seen = new Set<string>();
  for (const raw of rawIds.slice(0, MAX_FAMILIAR_IDS)) {
    const id = normaliseId(raw);
    if (!id || seen.has(id) || !getAccount(store, id)) continue;
    seen.add(id);
    const accounts = follows
      .filter((followId) => followId !== id && isFollowing(store, followId, id))
      .map((followId) => getAccount(store, followId))
      .filter(shown);
    out.push({ id, accounts });
  }
  return out;
}
