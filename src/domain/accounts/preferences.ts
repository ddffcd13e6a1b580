// GET /api/v1/preferences: the user's posting defaults (CredentialAccount.source) and reading preferences.
// Warren has no reading settings yet: those are Mastodon's defaults.
import type { UserRecord } from "../../model/accounts.ts";
import type { QuotePolicy } from "../../model/statuses.ts";

export interface Preferences {
  visibility: UserRecord["privacy"];
  sensitive: boolean;
  language: string | null;
  quotePolicy: QuotePolicy;
  expandMedia: "default";
  expandSpoilers: boolean;
  autoplayGifs: boolean;
}

export function preferencesOf(user: UserRecord): Preferences {
  return {
    visibility: user.privacy,
    sensitive: user.sensitive,
    language: user.language,
    quotePolicy: user.quotePolicy ?? "public",
    expandMedia: "default",
    expandSpoilers: false,
    autoplayGifs: false,
  };
}
