// /settings/delete (docs/web.md): a user deletes their own account, given the current password and their
// username typed as confirmation. One write suspends the account for good, marks its data deleted, locks the
// user out (every session and token ends) and records `account.data_deletion`, whose subscriber removes the
// data in batches (domain/admin/accounts-removal.ts; a durable, idempotent job). The account record stays,
// so the username is never taken again; the address stays reserved with the user.
import type { Deps } from "../../deps.ts";
import { getAccount, getUser, putAccount, putUser } from "../../store/accounts.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { verifyPassword } from "../auth/password.ts";
import { checkSettingsSession, type Session } from "../auth/settings.ts";
import { recordEvent } from "../events.ts";
import { Problems } from "./validation.ts";

export interface DeleteOwnForm {
  current_password?: string;
  confirm_username?: string;
}

/** Throws a 422 (Problems) for a wrong password or a confirmation that is not the username. */
export async function deleteOwnAccount(deps: Deps, session: Session, form: DeleteOwnForm): Promise<void> {
  checkSettingsSession(session);
  const problems = new Problems();
  if ((form.confirm_username ?? "").trim().replace(/^@/, "").toLowerCase() !== session.account.username.toLowerCase()) {
    problems.add("confirm_username", "ERR_CONFIRMATION", "doesn't match your username");
  }
  if (!(await verifyPassword(form.current_password ?? "", session.user.passwordHash))) problems.add("current_password", "ERR_INVALID", "is invalid");
  problems.throwIfAny();
  await deps.store.write(() => {
    const account = getAccount(deps.store, session.account.id);
    const user = getUser(deps.store, session.account.id);
    if (!account || !user || account.dataDeletedAt != null) return;
    const now = Date.now();
    for (const token of tokensOf(deps.store, account.id)) revokeToken(deps.store, token, now);
    removeWebSessionsOf(deps.store, account.id);
    const suspended = account.suspended ? account : { ...account, suspended: true, suspendedAt: now, suspensionOrigin: "local" as const };
    putAccount(deps.store, { ...suspended, dataDeletedAt: now });
    putUser(deps.store, { ...user, disabled: true });
    recordEvent(deps, "account.updated", { accountId: account.id });
    recordEvent(deps, "account.data_deletion", { accountId: account.id });
  });
}
