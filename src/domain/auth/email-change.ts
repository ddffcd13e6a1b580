// /settings/email (docs/web.md): a new address, given the current password, is kept as the user's
// unconfirmedEmail (Mastodon's unconfirmed_email) and mailed a confirmation link (`user.email_change_requested`,
// subscriber mail.email_change, network lane). The current address stays in force until the link is used
// (domain/auth/confirmation.ts swaps them); asking again replaces the pending address, whose link then stops working.
import type { Deps } from "../../deps.ts";
import { sendMail } from "../../mail/mailer.ts";
import { emailChangeMail } from "../../mail/templates/email-change.ts";
import { findUserByEmail, getAccount, getUser, putUser } from "../../store/accounts.ts";
import { isValidEmail, normaliseEmail } from "../accounts/email.ts";
import { Problems } from "../accounts/validation.ts";
import { emailSignUpVerdict } from "../admin/domain-blocks-email.ts";
import { recordEvent, type DomainEvent, type SubscriberContext } from "../events.ts";
import { mayUseLogin } from "../oauth/sign-in.ts";
import { issueMailToken } from "./mail-tokens.ts";
import { verifyPassword } from "./password.ts";
import { checkSettingsSession, type Session } from "./settings.ts";
import type { UserRecord } from "../../model/accounts.ts";

export interface EmailChangeForm {
  email?: string;
  current_password?: string;
}

function takenBySomeoneElse(deps: Pick<Deps, "store">, email: string, accountId: string): boolean {
  const owner = findUserByEmail(deps.store, email);
  return !!owner && owner.accountId !== accountId;
}

/** Throws a 422 (Problems) for a wrong password or an address that is invalid, taken, blocked or the current one. */
export async function requestEmailChange(deps: Deps, session: Session, form: EmailChangeForm): Promise<UserRecord> {
  checkSettingsSession(session);
  const email = normaliseEmail(form.email ?? "");
  const problems = new Problems();
  if (!email) problems.add("email", "ERR_BLANK", "can't be blank");
  else if (!isValidEmail(email)) problems.add("email", "ERR_INVALID", "is invalid");
  else if (email === session.user.email) problems.add("email", "ERR_UNCHANGED", "is the current address");
  else if (takenBySomeoneElse(deps, email, session.user.accountId)) problems.add("email", "ERR_TAKEN", "has already been taken");
  else if ((await emailSignUpVerdict(deps, email)) === "blocked") problems.add("email", "ERR_BLOCKED", "uses a disallowed e-mail provider");
  if (!(await verifyPassword(form.current_password ?? "", session.user.passwordHash))) problems.add("current_password", "ERR_INVALID", "is invalid");
  problems.throwIfAny();
  return deps.store.write(() => {
    const user = getUser(deps.store, session.user.accountId)!;
    if (takenBySomeoneElse(deps, email, user.accountId)) {
      const taken = new Problems();
      taken.add("email", "ERR_TAKEN", "has already been taken");
      taken.throwIfAny();
    }
    const next = { ...user, unconfirmedEmail: email };
    putUser(deps.store, next);
    recordEvent(deps, "user.email_change_requested", { accountId: user.accountId, email });
    return next;
  });
}

/** The mail.email_change subscriber: a fresh link to the new address, while it is still the pending one. */
export async function mailEmailChange(ctx: SubscriberContext, event: DomainEvent<"user.email_change_requested">): Promise<void> {
  const { accountId, email } = event.payload;
  const account = getAccount(ctx.store, accountId);
  const user = getUser(ctx.store, accountId);
  if (!account || !user || !mayUseLogin(account, user) || user.unconfirmedEmail !== email) return;
  const token = await ctx.store.write(() => issueMailToken(ctx.store, "confirmation", user, email));
  await sendMail(ctx.config, emailChangeMail(ctx.config, account, email, token, `email-change-${accountId}-${event.at}`));
}
