// A profile field's value as HTML, the one rendering the API (entities/account.ts) and the ActivityPub actor
// (federation/actor.ts) both serve, as Mastodon's Formatter#format_field: a local value is stored as typed
// (plain text), so it is escaped and its URLs linked with rel="me" for verification; a remote value was
// sanitised on arrival (lib/sanitize.ts) and is served as stored.
import { linkifyText } from "../../lib/html.ts";
import type { AccountRecord, ProfileField } from "../../store/records.ts";

export function fieldValueHtml(account: AccountRecord, field: ProfileField): string {
  return account.domain === null ? linkifyText(field.value, { relMe: true }) : field.value;
}
