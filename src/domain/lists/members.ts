// List members. Only accounts the owner follows (or has asked to follow), and the owner, may be added:
// anyone else is 422 and the whole request changes nothing. New members are back-filled into the list feed.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { addMember, getList, isMember, listsOf, pageMembers, removeMember } from "../../store/lists.ts";
import { getFollowRequest, isFollowing } from "../../store/relationships.ts";
import type { AccountPage } from "../relationships/lists.ts";
import { findTargetAccount } from "../relationships/target.ts";
import { recordEvent } from "../events.ts";
import { findOwnList } from "./manage.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { ListRecord } from "../../model/relationships.ts";

function mayJoin(store: Store, ownerId: string, accountId: string): boolean {
  return accountId === ownerId || isFollowing(store, ownerId, accountId) || !!getFollowRequest(store, ownerId, accountId);
}

function accountsByIds(store: Store, rawIds: string[]): AccountRecord[] {
  return rawIds.map((raw) => {
    const id = normaliseId(raw);
    const account = id ? getAccount(store, id) : undefined;
    if (!account) throw new NotFound();
    return account;
  });
}

export async function addListMembers(deps: Deps, ownerId: string, rawListId: string, rawAccountIds: string[]): Promise<void> {
  const { store } = deps;
  const list = findOwnList(store, ownerId, rawListId);
  const accounts = accountsByIds(store, rawAccountIds);
  await store.write(() => {
    if (!getList(store, ownerId, list.id)) throw new NotFound();
    if (accounts.some((account) => !mayJoin(store, ownerId, account.id))) {
      throw new Unprocessable("Validation failed: Account must be a followed account");
    }
    for (const account of accounts) {
      if (isMember(store, list.id, account.id)) continue;
      addMember(store, list, account.id);
      recordEvent(deps, "list.member_added", { ownerId, listId: list.id, accountId: account.id });
    }
  });
}

/** Unknown ids and accounts not on the list are ignored. */
export async function removeListMembers(deps: Deps, ownerId: string, rawListId: string, rawAccountIds: string[]): Promise<void> {
  const { store } = deps;
  const list = findOwnList(store, ownerId, rawListId);
  const ids = rawAccountIds.map(normaliseId).filter((id): id is string => id !== null);
  await store.write(() => {
    for (const id of ids) removeMember(store, list, id);
  });
}

/** GET /api/v1/lists/:id/accounts: by account id, newest first; `limit` 0 means every member. */
export function listMembersPage(store: Store, list: ListRecord, query: PageQuery, all: boolean): AccountPage {
  const visible = (id: string) => getAccount(store, id)?.suspended === false;
  const ids = pageMembers(store, list.id, all ? { limit: Infinity } : query, visible);
  const entries = ids.map((id) => ({ cursor: id, account: getAccount(store, id)! }));
  return { entries, full: !all && ids.length > 0 && ids.length === query.limit };
}

/** GET /api/v1/accounts/:id/lists: the viewer's lists that the account is on. */
export function listsWithAccount(store: Store, ownerId: string, rawAccountId: string): ListRecord[] {
  const account = findTargetAccount(store, rawAccountId, { allowSuspended: true });
  return listsOf(store, ownerId).filter((list) => isMember(store, list.id, account.id));
}
