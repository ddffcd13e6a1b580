// /settings/preferences: the posting defaults (default visibility, sensitive media, language), saved through
// update_credentials' own function as its `source[privacy|sensitive|language]`, so the rules are the API's.
import type { Deps } from "../../deps.ts";
import { updateCredentials } from "../accounts/update.ts";
import { checkSettingsSession, type Session } from "./settings.ts";
import type { UserRecord } from "../../model/accounts.ts";

export interface PreferencesForm {
  privacy?: string;
  sensitive?: string;
  language?: string;
}

/** An unticked box is absent from the form: false. A missing privacy is refused (422) as the API refuses "". */
export async function updatePreferencesFromSettings(deps: Deps, session: Session, form: PreferencesForm): Promise<UserRecord> {
  checkSettingsSession(session);
  const { user } = await updateCredentials(deps, session, {
    privacy: form.privacy ?? "",
    sensitive: form.sensitive === "1",
    language: form.language ?? "",
  });
  return user;
}
