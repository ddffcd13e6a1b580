// Password reset (docs/web.md): /auth/password/new records `user.password_reset_requested` for a known
// address (and answers the same either way); its subscriber (mail.password_reset, network lane) mails a
// one-time link valid for six hours. Setting the new password uses the token, ends every browser session
// (domain/auth/web-sessions.ts) and revokes the user's access tokens, as Mastodon does.
import type { Deps } from "../../deps.ts";
import { sendMail } from "../../mail/mailer.ts";
import { passwordResetMail } from "../../mail/templates/password-reset.ts";
import { findUserByEmail, getAccount, getUser, putUser } from "../../store/accounts.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { recordEvent, type DomainEvent, type SubscriberContext } from "../events.ts";
import { isValidEmail, normaliseEmail } from "../accounts/email.ts";
import { Problems, tooLong } from "../accounts/validation.ts";
import { mayUseLogin } from "../oauth/sign-in.ts";
import { hashPassword } from "./password.ts";
import { checkMailToken, issueMailToken, passwordStamp, useMailToken, type TokenCheck } from "./mail-tokens.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** POST /auth/password/new: a reset mail if the address belongs to a user who may sign in; silent otherwise. */
export async function requestPasswordReset(deps: Deps, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  const user = isValidEmail(email) ? findUserByEmail(deps.store, email) : undefined;
  const account = user ? getAccount(deps.store, user.accountId) : undefined;
  const wanted = !!user && !!account && mayUseLogin(account, user);
  // One write either way, so that the answer takes as long for an unknown address.
  await deps.store.write(() => {
    if (wanted) recordEvent(deps, "user.password_reset_requested", { accountId: user.accountId });
  });
}

/** The mail.password_reset subscriber. */
export async function mailPasswordReset(ctx: SubscriberContext, event: DomainEvent<"user.password_reset_requested">): Promise<void> {
  const { accountId } = event.payload;
  const account = getAccount(ctx.store, accountId);
  const user = getUser(ctx.store, accountId);
  if (!account || !user || !mayUseLogin(account, user)) return;
  const token = await ctx.store.write(() => issueMailToken(ctx.store, "password_reset", user, passwordStamp(user)));
  await sendMail(ctx.config, passwordResetMail(ctx.config, account, user.email, token, `password-reset-${accountId}-${event.at}`));
}

/** GET /auth/password/edit: is the link still good? */
export function checkResetToken(deps: Deps, raw: string | undefined): TokenCheck {
  return checkMailToken(deps.store, "password_reset", raw, passwordStamp);
}

export interface NewPassword {
  password: string;
  confirmation: string;
}

/** The form's problems, as the API words them (ACCOUNT_LIMITS). */
export function checkNewPassword(input: NewPassword): Problems {
  const problems = new Problems();
  const { password } = input;
  if (!password) problems.add("password", "ERR_BLANK", "can't be blank");
  else if (password.length < ACCOUNT_LIMITS.minPasswordLength) problems.add("password", "ERR_TOO_SHORT", `is too short (minimum is ${ACCOUNT_LIMITS.minPasswordLength} characters)`);
  else if (password.length > ACCOUNT_LIMITS.maxPasswordLength) problems.add("password", "ERR_TOO_LONG", tooLong(ACCOUNT_LIMITS.maxPasswordLength));
  if (password !== input.confirmation) problems.add("password_confirmation", "ERR_CONFIRMATION", "doesn't match Password");
  return problems;
}

export type ResetResult = { ok: true; account: AccountRecord } | Extract<TokenCheck, { ok: false }>;

/** POST /auth/password/edit: sets the password (the caller checked `checkNewPassword` first), uses the token. */
export async function resetPassword(deps: Deps, raw: string | undefined, input: NewPassword, now = Date.now()): Promise<ResetResult> {
  checkNewPassword(input).throwIfAny();
  // A dead link costs no password hashing; the token is checked again inside the write.
  const first = checkMailToken(deps.store, "password_reset", raw, passwordStamp, now);
  if (!first.ok) return first;
  const passwordHash = await hashPassword(input.password);
  return deps.store.write((): ResetResult => {
    const checked = checkMailToken(deps.store, "password_reset", raw, passwordStamp, now);
    if (!checked.ok) return checked;
    useMailToken(deps.store, checked.token, now);
    putUser(deps.store, { ...checked.user, passwordHash });
    for (const token of tokensOf(deps.store, checked.user.accountId)) revokeToken(deps.store, token, now);
    removeWebSessionsOf(deps.store, checked.user.accountId);
    return { ok: true, account: checked.account };
  });
}
