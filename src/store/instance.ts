// Read-only scans behind the instance's weekly activity, the admin measures and the known peers (the member
// statistics are kept figures instead: member-figures.ts). They walk the local users (a self-hosted server has
// few) or index keys only, never the remote side record by record.
import { readStatus } from "./statuses.ts";

import type { AccountRecord, UserRecord } from "../model/accounts.ts";
import type { TokenRecord } from "../model/auth.ts";
import type { LocalMember } from "../model/instance.ts";
import type { StatusRecord } from "../model/statuses.ts";
import { END, type Store } from "./handle.ts";

/** Local users with their accounts, oldest first. */
export function* localMembers(store: Store): Iterable<LocalMember> {
  for (const { value } of store.db.users.getRange({})) {
    const user = value as UserRecord;
    const account: AccountRecord | undefined = store.db.accounts.get(user.accountId);
    if (account) yield { user, account };
  }
}

/** When each user token was issued: one per sign-in. Revoked tokens are included, they still mark one. */
export function* userTokenIssues(store: Store): Iterable<{ accountId: string; createdAt: number }> {
  for (const { value } of store.db.tokens.getRange({})) {
    const token = value as TokenRecord;
    if (token.accountId) yield { accountId: token.accountId, createdAt: token.createdAt };
  }
}

/** Distinct (lower-case) domains of the remote accounts this server knows, from index keys alone. */
export function remoteAccountDomains(store: Store): Set<string> {
  const domains = new Set<string>();
  for (const key of store.db.accountsByAcct.getKeys({})) {
    const domain = (key as string[])[1];
    if (domain) domains.add(domain);
  }
  return domains;
}

/** Changes whenever an account is added or removed; O(1), so callers can keep derived facts until then. */
export function accountIndexSize(store: Store): number {
  return (store.db.accountsByAcct.getStats() as { entryCount: number }).entryCount;
}

/** An account's statuses and reblogs with ids from `fromId` on, oldest first. */
export function* accountStatusesFrom(store: Store, accountId: string, fromId: string): Iterable<StatusRecord> {
  for (const key of store.db.statusesByAccount.getKeys({ start: [accountId, fromId], end: [accountId, END] })) {
    const status = readStatus(store, (key as string[])[1]!);
    if (status) yield status;
  }
}

/** Statuses from `startId` to `endId` (snowflake ids, so a time range), oldest first, at most `limit`. */
export function* statusesBetween(store: Store, startId: string, endId: string, limit: number): Iterable<StatusRecord> {
  for (const { value } of store.db.statuses.getRange({ start: startId, end: endId, limit })) yield value as StatusRecord;
}

/** The bytes of every stored media file, as their records give them. */
export function mediaBytes(store: Store): number {
  let total = 0;
  for (const { value } of store.db.media.getRange({})) total += (value as { fileSize?: number }).fileSize ?? 0;
  return total;
}
