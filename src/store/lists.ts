// Lists: records by owner, members by list (paged by account id, as Mastodon pages list accounts), and the
// reverse index from an account to the lists it is on, which fan-out and the exclusive-list rule read.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { ListRecord } from "../model/relationships.ts";

export function getList(store: Store, ownerId: string, listId: string): ListRecord | undefined {
  return store.db.lists.get([ownerId, listId]);
}

/** The owner's lists, oldest first. */
export function listsOf(store: Store, ownerId: string): ListRecord[] {
  const out: ListRecord[] = [];
  for (const { value } of store.db.lists.getRange({ start: [ownerId], end: [ownerId, END] })) out.push(value as ListRecord);
  return out;
}

export function countLists(store: Store, ownerId: string): number {
  return store.db.lists.getCount({ start: [ownerId], end: [ownerId, END] });
}

/** Inside a write: a new list or new settings for one. */
export function putList(store: Store, list: ListRecord): void {
  store.db.lists.put([list.accountId, list.id], list);
}

/** Inside a write: the record and its memberships (its feed rows are removed by a job). */
export function removeList(store: Store, list: ListRecord): void {
  for (const accountId of memberIds(store, list.id)) removeMember(store, list, accountId);
  store.db.lists.remove([list.accountId, list.id]);
}

export function isMember(store: Store, listId: string, accountId: string): boolean {
  return store.db.listMembers.doesExist([listId, accountId]);
}

/** Inside a write. */
export function addMember(store: Store, list: ListRecord, accountId: string): void {
  store.db.listMembers.put([list.id, accountId], null);
  store.db.listMemberships.put([accountId, list.accountId, list.id], null);
}

/** Inside a write: true when the account was on the list. */
export function removeMember(store: Store, list: ListRecord, accountId: string): boolean {
  if (!isMember(store, list.id, accountId)) return false;
  store.db.listMembers.remove([list.id, accountId]);
  store.db.listMemberships.remove([accountId, list.accountId, list.id]);
  return true;
}

export function memberIds(store: Store, listId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.listMembers.getKeys({ start: [listId], end: [listId, END] })) out.push((key as string[])[1]!);
  return out;
}

/** A page of members, newest account first (cursors are account ids). */
export function pageMembers(store: Store, listId: string, query: PageQuery, accept: (accountId: string) => boolean): string[] {
  return scanPage<null>(store.db.listMembers, [listId], query, (row) => accept(row.key[1])).map((row) => row.key[1] as string);
}

export interface Membership {
  ownerId: string;
  listId: string;
}

/** Every list `accountId` is on, whoever owns it (fan-out to list feeds). */
export function listsContaining(store: Store, accountId: string): Membership[] {
  const out: Membership[] = [];
  for (const key of store.db.listMemberships.getKeys({ start: [accountId], end: [accountId, END] })) {
    const [, ownerId, listId] = key as string[];
    out.push({ ownerId: ownerId!, listId: listId! });
  }
  return out;
}

/** Ids of `ownerId`'s lists that `accountId` is on. */
export function ownerListsContaining(store: Store, ownerId: string, accountId: string): string[] {
  const out: string[] = [];
  for (const key of store.db.listMemberships.getKeys({ start: [accountId, ownerId], end: [accountId, ownerId, END] })) {
    out.push((key as string[])[2]!);
  }
  return out;
}
