// /settings/password: a new password, given the current one, under the API's length rules. Every session ends
// (the session cookie is signed over the password hash; the page gives this browser a new one) and the
// user's access tokens are revoked, as after a reset: whoever else was signed in is signed out.
import type { Deps } from "../../deps.ts";
import { getUser, putUser } from "../../store/accounts.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import type { UserRecord } from "../../store/records.ts";
import { Problems } from "../accounts/validation.ts";
import { checkNewPassword } from "./password-reset.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { checkSettingsSession, type Session } from "./settings.ts";

export interface PasswordChangeForm {
  current_password?: string;
  password?: string;
  password_confirmation?: string;
}

/** Throws a 422 (Problems) when the current password is wrong or the new one breaks the rules. */
export async function changePassword(deps: Deps, session: Session, form: PasswordChangeForm, now = Date.now()): Promise<UserRecord> {
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
    return next;
  });
}
