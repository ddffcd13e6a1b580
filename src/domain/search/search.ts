// GET /api/v2/search and GET /api/v1/accounts/search: what the caller may find. The engine (src/search/) only
// proposes candidates; every one is checked here against the records as they are now, so nothing the caller
// may not see comes back (private statuses of accounts they do not follow, direct ones they are not in,
// blocks either way, deleted statuses, suspended or unapproved accounts), however far the index lags.
import type { Deps } from "../../deps.ts";
import { Unauthorized } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { AccountQuery, SearchEngine } from "../../search/engine.ts";
import { findAccountByAcct, getAccount } from "../../store/accounts.ts";
import { blockedEitherWay, followingIdsOf, isBlocking } from "../../store/relationships.ts";
import { getStatus } from "../../store/statuses.ts";
import { tagKnown } from "../../store/tags.ts";
import { accountVisible, parseAcct } from "../accounts/read.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { weekOf, type TagHistoryDay } from "../tags/history.ts";
import { resolveLocalUrl } from "./urls.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export type SearchType = "accounts" | "hashtags" | "statuses";

export const SEARCH_LIMITS = { defaultLimit: 20, maxLimit: 40, accountsDefaultLimit: 40, accountsMaxLimit: 80 } as const;

export interface SearchInput {
  q: string;
  /** Anything else than the three types finds nothing, as on Mastodon. */
  type?: string;
  resolve: boolean;
  following: boolean;
  accountId?: string;
  maxId?: string;
  minId?: string;
  limit: number;
  /** Negative offsets count as 0 (the spec; Mastodon answers 400). */
  offset: number;
}

export interface SearchResults {
  accounts: AccountRecord[];
  statuses: StatusRecord[];
  hashtags: { name: string; history: TagHistoryDay[] }[];
}

/** How often a filtered search asks the engine again for more candidates, and how many more each time. */
const ROUNDS = 3;
const SLACK = 20;

/**
 * Candidates come from `fetch(limit, offset)` in engine order; `keep` decides each. Answers the `want` kept
 * ones after skipping `skip` kept ones, asking the engine again (a few rounds at most) when the checks
 * threw candidates away.
 */
async function filtered<T>(fetch: (limit: number, offset: number) => Promise<T[]>, keep: (candidate: T) => boolean, skip: number, want: number): Promise<T[]> {
  const kept: T[] = [];
  let offset = 0;
  for (let round = 0; round < ROUNDS && kept.length < skip + want; round++) {
    const ask = skip + want - kept.length + SLACK;
    const batch = await fetch(ask, offset);
    offset += batch.length;
    for (const candidate of batch) if (keep(candidate)) kept.push(candidate);
    if (batch.length < ask) break;
  }
  return kept.slice(skip, skip + want);
}

/**
 * An account the caller may find: visible (approved, confirmed), not suspended, not blocking the caller.
 * Accounts the caller blocks stay findable, as on Mastodon: clients find them by name to unblock them.
 */
function findable(deps: Deps, viewerId: string | null, account: AccountRecord | undefined): account is AccountRecord {
  if (!account || account.suspended || !accountVisible(deps.store, account)) return false;
  return !viewerId || account.id === viewerId || !isBlocking(deps.store, account.id, viewerId);
}

function statusFindable(deps: Deps, viewerId: string, status: StatusRecord | undefined): status is StatusRecord {
  if (!status || status.deletedAt || status.reblogOfId) return false;
  const author = getAccount(deps.store, status.accountId);
  if (!author || author.suspended) return false;
  if (status.accountId !== viewerId && blockedEitherWay(deps.store, viewerId, status.accountId)) return false;
  return canSeeStatus(deps.store, viewerId, status);
}

/** Accounts by `q`: an `@user@domain` or `user` acct exactly first, then what the engine ranks. */
export async function searchAccounts(
  deps: Deps,
  engine: SearchEngine,
  viewerId: string | null,
  q: string,
  options: { limit: number; offset: number; following: boolean },
): Promise<AccountRecord[]> {
  const among = options.following && viewerId ? new Set(followingIdsOf(deps.store, viewerId)) : undefined;
  const query: Omit<AccountQuery, "limit" | "offset"> = among ? { among } : {};
  const keep = (id: string) => findable(deps, viewerId, getAccount(deps.store, id)) && (!among || among.has(id));
  // An exact acct is found even when the index has not caught up (e.g. right after sign-up).
  const parsed = /^@?[\w.-]+(@[\w.-]+(:\d+)?)?$/.test(q.trim()) ? parseAcct(deps, q) : null;
  const exact = parsed ? findAccountByAcct(deps.store, parsed.username, parsed.domain) : undefined;
  const exactId = exact && keep(exact.id) ? exact.id : null;
  const ids = await filtered(
    async (limit, offset) => (await engine.searchAccounts(q, { ...query, limit, offset })).filter((id) => id !== exactId),
    keep,
    Math.max(0, options.offset - (exactId ? 1 : 0)),
    options.limit,
  );
  const all = exactId && options.offset === 0 ? [exactId, ...ids].slice(0, options.limit) : ids;
  return all.map((id) => getAccount(deps.store, id)!);
}

async function searchHashtags(deps: Deps, engine: SearchEngine, q: string, limit: number, offset: number): Promise<SearchResults["hashtags"]> {
  const names = await engine.searchTags(q, { limit, offset });
  // A tag used before the index caught up is still found by its exact name.
  const exact = q.trim().replace(/^#/, "").toLowerCase();
  if (offset === 0 && exact && !names.includes(exact) && tagKnown(deps.store, exact)) names.unshift(exact);
  return names.slice(0, limit).map((name) => ({ name, history: weekOf(deps.store, name) }));
}

async function searchStatuses(deps: Deps, engine: SearchEngine, viewerId: string, input: SearchInput): Promise<StatusRecord[]> {
  const accountId = input.accountId === undefined ? undefined : (normaliseId(input.accountId) ?? "");
  if (accountId === "") return [];
  const maxId = input.maxId === undefined ? undefined : (normaliseId(input.maxId) ?? undefined);
  const minId = input.minId === undefined ? undefined : (normaliseId(input.minId) ?? undefined);
  const ids = await filtered(
    (limit, offset) => engine.searchStatuses(input.q, { limit, offset, accountId, maxId, minId }),
    (id) => statusFindable(deps, viewerId, getStatus(deps.store, id)),
    input.offset,
    input.limit,
  );
  return ids.map((id) => getStatus(deps.store, id)!);
}

async function resolveStatusUrl(deps: Deps, q: string): Promise<StatusRecord | null> {
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    return null;
  }
  return deps.remote.status(deps, url);
}

/**
 * GET /api/v2/search. Anonymous callers may not page (`offset` > 0) or resolve (401, as Mastodon) and find no
 * statuses. A URL of this server finds what it names; `resolve` resolves another server's acct, actor URL or status URL.
 */
export async function search(deps: Deps, engine: SearchEngine, viewerId: string | null, input: SearchInput): Promise<SearchResults> {
  if (!viewerId && input.offset > 0) throw new Unauthorized("Search queries pagination is not supported without authentication");
  if (!viewerId && input.resolve) throw new Unauthorized("Search queries that resolve remote resources are not supported without authentication");
  const results: SearchResults = { accounts: [], statuses: [], hashtags: [] };
  const q = input.q.trim();
  if (!q) return results;
  const type = input.type;
  const wants = (t: SearchType) => type === undefined || type === "" || type === t;
  // Mastodon pages only one type at a time: without a type the offset is ignored.
  const offset = type ? input.offset : 0;

  const url = resolveLocalUrl(deps, q);
  if (url) {
    if (url.kind === "account" && wants("accounts") && findable(deps, viewerId, url.account) && offset === 0) results.accounts.push(url.account);
    if (url.kind === "status" && wants("statuses") && viewerId && statusFindable(deps, viewerId, url.status) && offset === 0) results.statuses.push(url.status);
    return results;
  }
  // `resolve` with another server's URL: the status it serves, fetched with its author and ancestors and stored
  // (deps.remote: src/federation/threads.ts), or else the account of the actor it serves (fetched and stored if unknown).
  if (input.resolve && viewerId && /^https?:\/\//i.test(q)) {
    const status = wants("statuses") && offset === 0 ? await resolveStatusUrl(deps, q) : null;
    if (status) {
      if (statusFindable(deps, viewerId, status)) results.statuses.push(status);
      return results;
    }
    if (wants("accounts") && offset === 0) {
      const account = await deps.remote.accountByUrl(deps, q);
      if (account && findable(deps, viewerId, account)) results.accounts.push(account);
    }
    return results;
  }
  // `resolve` with another server's acct: WebFinger and the actor (src/federation/remote-accounts.ts), stored
  // so the exact match below finds it.
  if (input.resolve && viewerId && wants("accounts") && offset === 0 && /^@?[\w.-]+@[\w.-]+(:\d+)?$/.test(q)) {
    const parsed = parseAcct(deps, q);
    if (parsed?.domain) {
      await deps.remote.account(deps, parsed.username, parsed.domain);
    }
  }
  if (wants("accounts")) results.accounts = await searchAccounts(deps, engine, viewerId, q, { limit: input.limit, offset, following: input.following });
  if (wants("hashtags")) results.hashtags = await searchHashtags(deps, engine, q, input.limit, offset);
  if (wants("statuses") && viewerId) results.statuses = await searchStatuses(deps, engine, viewerId, { ...input, offset });
  return results;
}
