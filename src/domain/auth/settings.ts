// The settings page (/settings/profile): the signed-in browser's profile, changed through update_credentials'
// own function, so the limits and effects (unlocking accepts pending requests, account.updated) are the API's.
import type { Deps } from "../../deps.ts";
import { Forbidden } from "../../lib/errors.ts";
import { updateCredentials } from "../accounts/update.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";

export interface Session {
  account: AccountRecord;
  user: UserRecord;
}

export interface ProfileForm {
  display_name?: string;
  note?: string;
  locked?: string;
  bot?: string;
  discoverable?: string;
}

/** A session may change settings only once its user could use the API (confirmed and approved). */
export function checkSettingsSession(session: Session): void {
  if (session.user.confirmedAt === null) throw new Forbidden("Your login is missing a confirmed e-mail address");
  if (!session.user.approved) throw new Forbidden("Your login is currently pending approval");
}

/** The form sends every field; an unticked box is absent, so it means false. */
export async function updateProfileFromSettings(deps: Deps, session: Session, form: ProfileForm): Promise<AccountRecord> {
  checkSettingsSession(session);
  const { account } = await updateCredentials(deps, session, {
    displayName: form.display_name ?? "",
    note: form.note ?? "",
    locked: form.locked === "1",
    bot: form.bot === "1",
    discoverable: form.discoverable === "1",
  });
  return account;
}
