// Operator changes to local users (CLI today, admin API later): role, approval, confirmation, e-mail,
// disabling and password resets. Each call is one transaction; the account's role badge is kept in step.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { findAccountByAcct, findUserByEmail, getAccount, getUser, putAccount, putUser } from "../../store/accounts.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { hashPassword } from "../auth/password.ts";
import { isValidEmail, normaliseEmail } from "./email.ts";
import { Problems } from "./validation.ts";
import type { AccountRecord, RoleName, UserRecord } from "../../model/accounts.ts";

export interface UserChanges {
  role?: RoleName;
  approve?: boolean;
  confirm?: boolean;
  /** true disables sign-in (every token answers 403, browser sessions end), false enables it again */
  disabled?: boolean;
  email?: string;
  /** A new password; every existing token and browser session of the user ends with it. */
  password?: string;
}

/** The local account and user named `username`, or NotFound. */
export function findLocalUser(deps: Deps, username: string): { account: AccountRecord; user: UserRecord } {
  const account = findAccountByAcct(deps.store, username, null);
  const user = account ? getUser(deps.store, account.id) : undefined;
  if (!account || !user) throw new NotFound("No user with such username");
  return { account, user };
}

export async function changeUser(deps: Deps, accountId: string, changes: UserChanges): Promise<{ account: AccountRecord; user: UserRecord }> {
  const email = changes.email === undefined ? undefined : normaliseEmail(changes.email);
  if (email !== undefined) {
    const problems = new Problems();
    const owner = findUserByEmail(deps.store, email);
    if (!isValidEmail(email)) problems.add("email", "ERR_INVALID", "is invalid");
    else if (owner && owner.accountId !== accountId) problems.add("email", "ERR_TAKEN", "has already been taken");
    problems.throwIfAny();
  }
  const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  return deps.store.write(() => {
    const account = getAccount(deps.store, accountId);
    const user = getUser(deps.store, accountId);
    if (!account || !user) throw new NotFound("No user with such username");
    const nextUser: UserRecord = { ...user };
    const nextAccount: AccountRecord = { ...account };
    if (changes.role) nextUser.role = nextAccount.role = changes.role;
    if (changes.approve) nextUser.approved = true;
    if (changes.confirm && nextUser.confirmedAt === null) nextUser.confirmedAt = Date.now();
    if (changes.disabled !== undefined) nextUser.disabled = changes.disabled;
    if (changes.disabled || passwordHash !== undefined) removeWebSessionsOf(deps.store, accountId);
    if (email !== undefined) nextUser.email = email;
    if (passwordHash !== undefined) {
      nextUser.passwordHash = passwordHash;
      const now = Date.now();
      for (const token of tokensOf(deps.store, accountId)) revokeToken(deps.store, token, now);
    }
    putUser(deps.store, nextUser, user.email);
    if (nextAccount.role !== account.role) putAccount(deps.store, nextAccount);
    return { account: nextAccount, user: nextUser };
  });
}
