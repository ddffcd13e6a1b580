// GET /api/v1/directory: discoverable accounts (not suspended nor silenced; local ones approved and
// confirmed), local only with `local`, minus those the viewer blocks, mutes or blocks the domain of, and
// those blocking the viewer; `order=active` (default: newest status first, never-posted last) or `new`
// (newest account first); offset paging. The read examines the DIRECTORY_SCAN_ROWS newest accounts.
import type { Deps } from "../../deps.ts";
import { newestAccounts } from "../../store/directory.ts";
import { isBlocking } from "../../store/relationships.ts";
import { viewerHides } from "../policy/visibility.ts";
import { accountVisible } from "./read.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export const DIRECTORY_SCAN_ROWS = 10_000;

export interface DirectoryQuery {
  order: "active" | "new";
  local: boolean;
  offset: number;
  limit: number;
}

export function directory(deps: Deps, viewerId: string | null, query: DirectoryQuery): AccountRecord[] {
  const { store } = deps;
  const listed = (account: AccountRecord) =>
    account.discoverable &&
    !account.suspended &&
    !account.silenced &&
    (!query.local || account.domain === null) &&
    accountVisible(store, account) &&
    (!viewerId || account.id === viewerId || (!viewerHides(store, viewerId, account.id) && !isBlocking(store, account.id, viewerId)));
  const accounts = newestAccounts(store, DIRECTORY_SCAN_ROWS, listed);
  if (query.order === "active") {
    // Stable: accounts that last posted at the same moment stay newest first.
    accounts.sort((a, b) => (b.lastStatusAt ?? -1) - (a.lastStatusAt ?? -1));
  }
  return accounts.slice(query.offset, query.offset + query.limit);
}
