// E-mail confirmation (docs/web.md): a sign-up that needs it, or a resend, records `user.confirmation_requested`;
// its subscriber (mail.confirmation, network lane) issues a one-time token and mails the link; opening the link
// confirms the user. Resends never tell whether an address is known.
import { canonicalEmailBlocked } from "../admin/canonical-email-blocks.ts";
import type { Deps } from "../../deps.ts";
import { Forbidden } from "../../lib/errors.ts";
import { sendMail } from "../../mail/mailer.ts";
import { confirmationMail } from "../../mail/templates/confirmation.ts";
import { findUserByEmail, getAccount, getUser, putUser } from "../../store/accounts.ts";
import type { Viewer } from "./viewer.ts";
import { recordEvent, type DomainEvent, type SubscriberContext } from "../events.ts";
import { isValidEmail, normaliseEmail } from "../accounts/email.ts";
import { Problems } from "../accounts/validation.ts";
import { emailSignUpVerdict } from "../admin/domain-blocks-email.ts";
import { checkMailToken, issueMailToken, useMailToken, type TokenCheck } from "./mail-tokens.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";

// A link is for the address waiting for confirmation: a new one asked for in /settings/email (email-change.ts),
// or else the sign-up's.
const stampOf = (user: UserRecord) => user.unconfirmedEmail ?? user.email;

/** Inside a write: a confirmation mail for `user` (unconfirmed) is to go out. */
export function requestConfirmationMail(deps: Pick<Deps, "jobs">, user: UserRecord): void {
  recordEvent(deps, "user.confirmation_requested", { accountId: user.accountId, email: user.email });
}

/** The mail.confirmation subscriber: a fresh token, mailed, while the user still waits for confirmation of that address. */
export async function mailConfirmation(ctx: SubscriberContext, event: DomainEvent<"user.confirmation_requested">): Promise<void> {
  const { accountId, email } = event.payload;
  const account = getAccount(ctx.store, accountId);
  const user = getUser(ctx.store, accountId);
  if (!account || !user || user.confirmedAt !== null || user.disabled || user.email !== email) return;
  const token = await ctx.store.write(() => issueMailToken(ctx.store, "confirmation", user, stampOf(user)));
  await sendMail(ctx.config, confirmationMail(ctx.config, account, email, token, `confirmation-${accountId}-${event.at}`));
}

export type ConfirmationResult = { ok: true; account: AccountRecord; pendingApproval: boolean } | Extract<TokenCheck, { ok: false }>;

/** GET /auth/confirmation: uses the token and confirms its user (once; a second visit is "used"). */
export async function confirmEmail(deps: Deps, raw: string | undefined, now = Date.now()): Promise<ConfirmationResult> {
  // Checked first without writing, so that guessed links cost no write; checked again inside the write.
  const first = checkMailToken(deps.store, "confirmation", raw, stampOf, now);
  if (!first.ok) return first;
  return deps.store.write((): ConfirmationResult => {
    const checked = checkMailToken(deps.store, "confirmation", raw, stampOf, now);
    if (!checked.ok) return checked;
    useMailToken(deps.store, checked.token, now);
    const changed = checked.user.unconfirmedEmail;
    if (changed) {
      // The new address replaces the old one, unless someone signed up with it meanwhile.
      const owner = findUserByEmail(deps.store, changed);
      if (owner && owner.accountId !== checked.user.accountId) return { ok: false, reason: "used" };
      putUser(deps.store, { ...checked.user, email: changed, unconfirmedEmail: null }, checked.user.email);
    } else if (checked.user.confirmedAt === null) {
      putUser(deps.store, { ...checked.user, confirmedAt: now });
      recordEvent(deps, "user.confirmed", { accountId: checked.user.accountId }, "local", now);
    }
    return { ok: true, account: checked.account, pendingApproval: !checked.user.approved };
  });
}

/** POST /auth/confirmation/new: a new mail if the address belongs to a user still unconfirmed; silent otherwise. */
export async function resendConfirmation(deps: Deps, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  const user = isValidEmail(email) ? findUserByEmail(deps.store, email) : undefined;
  const wanted = !!user && user.confirmedAt === null && !user.disabled;
  // One write either way, so that the answer takes as long for an unknown address.
  await deps.store.write(() => {
    if (wanted) requestConfirmationMail(deps, user);
  });
}

/**
 * POST /api/v1/emails/confirmations (Mastodon's Api::V1::Emails::ConfirmationsController): the app that signed
 * the user up sends the mail again, to a new address when `email` is given.
 */
export async function resendConfirmationForApp(deps: Deps, viewer: Viewer, rawEmail: string | undefined): Promise<void> {
  const user = viewer.user;
  if (!user || user.createdByAppId !== viewer.app.id) throw new Forbidden("This method is only available to the application the user originally signed-up with");
  const email = rawEmail === undefined ? user.email : normaliseEmail(rawEmail);
  // Where Mastodon would still be waiting for the link (it always mails one after an app's sign-up), an
  // instance that confirms sign-ups at once has nothing to send: the same address is a no-op, not a refusal
  // (Mastodon.py signs up and resends at once). A new address still needs an unconfirmed user.
  if (user.confirmedAt !== null && !deps.config.requireEmailConfirmation && email === user.email) return;
  if (user.confirmedAt !== null) throw new Forbidden("This method is only available while the e-mail is awaiting confirmation");
  if (email !== user.email) {
    const problems = new Problems();
    if (!email) problems.add("email", "ERR_BLANK", "can't be blank");
    else if (!isValidEmail(email)) problems.add("email", "ERR_INVALID", "is invalid");
    else if (findUserByEmail(deps.store, email) || canonicalEmailBlocked(deps.store, email)) problems.add("email", "ERR_TAKEN", "has already been taken");
    else if ((await emailSignUpVerdict(deps, email)) === "blocked") problems.add("email", "ERR_BLOCKED", "uses a disallowed e-mail provider");
    problems.throwIfAny();
  }
  await deps.store.write(() => {
    const current = getUser(deps.store, user.accountId)!;
    const next = { ...current, email };
    if (email !== current.email) {
      if (findUserByEmail(deps.store, email)) {
        const taken = new Problems();
        taken.add("email", "ERR_TAKEN", "has already been taken");
        taken.throwIfAny();
      }
      putUser(deps.store, next, current.email);
    }
    requestConfirmationMail(deps, next);
  });
}
