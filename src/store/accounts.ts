// Accounts (local and remote) and the local users behind them.
import { packAccountKeys } from "./account-keys-packing.ts";
import type { AccountKeysRecord, AccountRecord, UserRecord } from "../model/accounts.ts";
import type { Store } from "./handle.ts";
import { accountWritten, userWritten } from "./member-figures.ts";

export function getAccount(store: Store, id: string): AccountRecord | undefined {
  return store.db.accounts.get(id);
}

/** Accounts in the order of `ids`, skipping unknown ones. */
export function getAccounts(store: Store, ids: readonly string[]): AccountRecord[] {
  const out: AccountRecord[] = [];
  for (const id of ids) {
    const account: AccountRecord | undefined = store.db.accounts.get(id);
    if (account) out.push(account);
  }
  return out;
}

export function findAccountByAcct(store: Store, username: string, domain: string | null): AccountRecord | undefined {
  const id: string | undefined = store.db.accountsByAcct.get([username.toLowerCase(), domain?.toLowerCase() ?? ""]);
  return id ? getAccount(store, id) : undefined;
}

export function getUser(store: Store, accountId: string): UserRecord | undefined {
  return store.db.users.get(accountId);
}

export function findUserByEmail(store: Store, email: string): UserRecord | undefined {
  const id: string | undefined = store.db.usersByEmail.get(email.toLowerCase());
  return id ? getUser(store, id) : undefined;
}

export function usernameTaken(store: Store, username: string, domain: string | null = null): boolean {
  return store.db.accountsByAcct.get([username.toLowerCase(), domain?.toLowerCase() ?? ""]) !== undefined;
}

/** Inside a write: a new account with its indexes (and its user for local accounts, its keys when known). */
export function insertAccount(store: Store, account: AccountRecord, user?: UserRecord, keys?: AccountKeysRecord): void {
  if (keys) store.db.accountKeys.put(account.id, packAccountKeys(keys));
  store.db.accounts.put(account.id, account);
  store.db.accountsByAcct.put([account.username.toLowerCase(), account.domain?.toLowerCase() ?? ""], account.id);
  store.db.accountsByUri.put(account.uri, account.id);
  if (user) putUser(store, user);
  else accountWritten(store, account);
}

/** Inside a write: replaces the account record (username and domain never change); a local one's figures follow. */
export function putAccount(store: Store, account: AccountRecord): void {
  store.db.accounts.put(account.id, account);
  accountWritten(store, account);
}

/** Inside a write: replaces the user record, keeping the e-mail index and the member figures right. */
export function putUser(store: Store, user: UserRecord, previousEmail?: string): void {
  if (previousEmail && previousEmail.toLowerCase() !== user.email.toLowerCase()) {
    store.db.usersByEmail.remove(previousEmail.toLowerCase());
  }
  store.db.users.put(user.accountId, user);
  store.db.usersByEmail.put(user.email.toLowerCase(), user.accountId);
  userWritten(store, user);
}

/** An account by its ActivityPub id (local or remote). */
export function findAccountByUri(store: Store, uri: string): AccountRecord | undefined {
  const id: string | undefined = store.db.accountsByUri.get(uri);
  return id ? getAccount(store, id) : undefined;
}

/** Inside a write: replaces an account's keys (a remote actor's public key, refreshed). */
export function putAccountKeys(store: Store, accountId: string, keys: AccountKeysRecord): void {
  store.db.accountKeys.put(accountId, packAccountKeys(keys));
}

/** Ids of the stored remote accounts whose domain passes `matches` (a scan of every account: for jobs). */
export function remoteAccountIdsWhere(store: Store, matches: (domain: string) => boolean): string[] {
  const ids: string[] = [];
  for (const { key, value } of store.db.accounts.getRange()) {
    const account = value as AccountRecord;
    if (account.domain !== null && matches(account.domain)) ids.push(key as string);
  }
  return ids;
}
