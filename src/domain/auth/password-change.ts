// /settings/password: a new password, given the current one, under the API's length rules. Every other
// session ends (the one changing it stays) and the user's access tokens are revoked, as after a reset:
// whoever else was signed in is signed out.
import type { Deps } from "../../deps.ts";
import { getUser, putUser } from "../../store/accounts.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { Problems } from "../accounts/validation.ts";
import { checkNewPassword } from "./password-reset.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { checkSettingsSession, type Session } from "./settings.ts";
import type { UserRecord } from "../../model/accounts.ts";

export interface PasswordChangeForm {
  current_password?: string;
  password?: string;
  password_confirmation?: string;
}

/**
 * Throws a 422 (Problems) when the current password is wrong or the new one breaks the rules. `keepSessionHash`:
 * the digest of the session making the change, which stays.
 */
export async function changePassword(deps: Deps, session: Session, form: PasswordChangeForm, keepSessionHash: string, now = Date.now()): Promise<UserRecord> {
  checkSettingsSession(session);
  const problems = checkNewPassword({ password: form.password ?? "", confirmation: form.password_confirmation ?? "" });
  if (!(await verifyPassword(form.current_password ?? "", session.user.passwordHash))) {
    problems.add("current_password", "ERR_INVALID", "is invalid");
  }
  problems.throwIfAny();
  const passwordHash = await hashPassword(form.password!);
  return deps.store.write(() => {
    const user = getUser(deps.store, session.user.accountId);
    // Changed meanwhile (another browser): the current password checked above is no longer the one.
    if (!user || user.passwordHash !== session.user.passwordHash) {
      const stale = new Problems();
      stale.add("current_password", "ERR_INVALID", "is invalid");
      stale.throwIfAny();
    }
    const next = { ...user!, passwordHash };
    putUser(deps.store, next);
    for (const token of tokensOf(deps.store, next.accountId)) revokeToken(deps.store, token, now);
    removeWebSessionsOf(deps.store, next.accountId, keepSessionHash);
    return next;
  });
}
