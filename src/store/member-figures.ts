// The figures behind the instance statistics (domain/instance/info.ts: members, active members, local posts)
// and the Owners behind its contact account, kept up to date by the writes that change a local user, its
// account or its sign-ins (store/accounts.ts, store/oauth.ts, store/admin-accounts.ts call recountMember in
// their transaction), so that an instance answer reads a few keys instead of every user, account and token
// (it was most of the first answer after a start: docs/benchmarks.md). Migration 12 computes them once.
//
// `member_figures` keys:
//   "members"                      → users who may use the server (isActiveMember)
//   "posts"                        → Σ statusesCount of local users' accounts, members or not
//   ["day", utcDay]                → members whose last activity falls on that UTC day
//   ["active", lastActive, userId] → null: members by last activity, read for the day a window starts in
//   ["counted", userId]            → Counted: what the figures above hold for this user
//   ["sign_in", userId]            → the user's latest token issue (ms), revoked tokens included
//   ["owner", userId]              → null: users with the Owner role, oldest first
import type { AccountRecord, UserRecord } from "../model/accounts.ts";
import type { TokenRecord } from "../model/auth.ts";
import { END, type Store } from "./handle.ts";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** What the figures hold for one local user. */
interface Counted {
  member: boolean;
  posts: number;
  /** Latest of sign-up, sign-in and post (ms); counted in the windows only when `member`. */
  active: number;
}

/** Whether a local user counts as a member of the server (statistics, contact account). */
export function isActiveMember(user: UserRecord, account: AccountRecord): boolean {
  return user.confirmedAt !== null && user.approved && !user.disabled && !account.suspended;
}

function countedNow(store: Store, userId: string): Counted | null {
  const user: UserRecord | undefined = store.db.users.get(userId);
  const account: AccountRecord | undefined = user && store.db.accounts.get(userId);
  if (!user || !account) return null;
  const signIn: number = store.db.memberFigures.get(["sign_in", userId]) ?? 0;
  return { member: isActiveMember(user, account), posts: account.statusesCount, active: Math.max(user.createdAt, signIn, account.lastStatusAt ?? 0) };
}

function add(store: Store, key: string | (string | number)[], delta: number): void {
  if (delta === 0) return;
  const value = ((store.db.memberFigures.get(key) as number | undefined) ?? 0) + delta;
  if (value === 0 && Array.isArray(key)) store.db.memberFigures.remove(key);
  else store.db.memberFigures.put(key, value);
}

/** Inside a write that changed the user `userId`, its account or its sign-ins: the figures follow. */
export function recountMember(store: Store, userId: string): void {
  const figures = store.db.memberFigures;
  const before: Counted | undefined = figures.get(["counted", userId]);
  const after = countedNow(store, userId);
  if (before?.member === after?.member && before?.posts === after?.posts && before?.active === after?.active) return;
  add(store, "posts", (after?.posts ?? 0) - (before?.posts ?? 0));
  if (before?.member) {
    add(store, "members", -1);
    add(store, ["day", dayOf(before.active)], -1);
    figures.remove(["active", before.active, userId]);
  }
  if (after?.member) {
    add(store, "members", 1);
    add(store, ["day", dayOf(after.active)], 1);
    figures.put(["active", after.active, userId], null);
  }
  if (after) figures.put(["counted", userId], after);
  else figures.remove(["counted", userId]);
}

/** Inside a write that stored `user`: the Owners index and the figures follow. */
export function userWritten(store: Store, user: UserRecord): void {
  if (user.role === "Owner") store.db.memberFigures.put(["owner", user.accountId], null);
  else store.db.memberFigures.remove(["owner", user.accountId]);
  recountMember(store, user.accountId);
}

/** Inside a write that stored `account`: local accounts' figures follow (remote ones count nowhere). */
export function accountWritten(store: Store, account: AccountRecord): void {
  if (account.domain === null) recountMember(store, account.id);
}

/** Inside a write that issued `token`: a sign-in of its user. */
export function tokenIssued(store: Store, token: TokenRecord): void {
  if (!token.accountId) return;
  const key = ["sign_in", token.accountId];
  if (token.createdAt <= ((store.db.memberFigures.get(key) as number | undefined) ?? 0)) return;
  store.db.memberFigures.put(key, token.createdAt);
  recountMember(store, token.accountId);
}

/** Inside a write that removed the user `userId` and its account. */
export function userRemoved(store: Store, userId: string): void {
  store.db.memberFigures.remove(["owner", userId]);
  recountMember(store, userId);
}

/** Members, and the statuses and reblogs of local users' accounts. */
export function memberTotals(store: Store): { members: number; posts: number } {
  return { members: store.db.memberFigures.get("members") ?? 0, posts: store.db.memberFigures.get("posts") ?? 0 };
}

/**
 * Members whose last activity is at `since` or later: the days after the one `since` falls in from their
 * counts (a window of 180 days reads at most ~180 keys), that day from its members (a key count).
 */
export function membersActiveSince(store: Store, since: number): number {
  const figures = store.db.memberFigures;
  const day = dayOf(since);
  let count = figures.getCount({ start: ["active", since], end: ["active", (day + 1) * DAY_MS] });
  for (const { value } of figures.getRange({ start: ["day", day + 1], end: ["day", END] })) count += value as number;
  return count;
}

/** Ids of the users with the Owner role, oldest first. */
export function ownerIds(store: Store): string[] {
  return [...store.db.memberFigures.getKeys({ start: ["owner"], end: ["owner", END] })].map((key) => (key as string[])[1]!);
}

/** Migration 12: the figures computed from every user, account and token (run again, the same figures). */
export function countMembers(store: Store): void {
  for (const key of [...store.db.memberFigures.getKeys({})]) store.db.memberFigures.remove(key);
  const signIns = new Map<string, number>();
  for (const { value } of store.db.tokens.getRange({})) {
    const token = value as TokenRecord;
    if (token.accountId && token.createdAt > (signIns.get(token.accountId) ?? 0)) signIns.set(token.accountId, token.createdAt);
  }
  for (const [userId, at] of signIns) store.db.memberFigures.put(["sign_in", userId], at);
  for (const { value } of store.db.users.getRange({})) userWritten(store, value as UserRecord);
}
