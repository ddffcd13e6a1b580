// What the public HTML page of a status (/@username/:id) shows: one public or unlisted post of that local
// account and its thread as anyone may see it (ancestors and replies that are public or unlisted, by authors
// who are not suspended), less the authors the account and it block between them. Reads only.
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import { isBlocking } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { contextLimits, statusContext } from "../statuses/read.ts";
import { loadStatuses } from "../statuses/load.ts";
import { localPublicAccount } from "./profile.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatuses } from "../statuses/loaded.ts";

export interface PublicThread {
  account: AccountRecord;
  /** The post itself (one status). */
  status: LoadedStatuses;
  ancestors: LoadedStatuses;
  descendants: LoadedStatuses;
}

/** Null when the id is not a post of this account that anyone may open (private, direct, deleted, a reblog). */
export function publicThread(deps: Deps, username: string, rawId: string): PublicThread | null {
  const account = localPublicAccount(deps, username);
  const id = normaliseId(rawId);
  const status = account && id ? getStatus(deps.store, id) : undefined;
  if (!account || !status || status.accountId !== account.id || status.reblogOfId) return null;
  if (status.visibility !== "public" && status.visibility !== "unlisted") return null;
  if (!canSeeStatus(deps.store, null, status)) return null;
  const loaded = loadStatuses(deps, null, [status]);
  if (loaded.statuses.length === 0) return null;
  const { store } = deps;
  const context = statusContext(store, null, status, contextLimits(false));
  const shown = (s: StatusRecord) =>
    s.accountId === account.id || (!isBlocking(store, account.id, s.accountId) && !isBlocking(store, s.accountId, account.id));
  return {
    account,
    status: loaded,
    ancestors: loadStatuses(deps, null, context.ancestors.filter(shown)),
    descendants: loadStatuses(deps, null, context.descendants.filter(shown)),
  };
}
