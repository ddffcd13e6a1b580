// Preferences entity (GET /api/v1/preferences): Mastodon's colon-separated keys.
import { t, type Static } from "elysia";
import type { Preferences } from "../domain/accounts/preferences.ts";
import { Nullable } from "./nullable.ts";

const Visibility = t.Union([t.Literal("public"), t.Literal("unlisted"), t.Literal("private"), t.Literal("direct")]);

export const PreferencesSchema = t.Object(
  {
    "posting:default:visibility": Visibility,
    "posting:default:sensitive": t.Boolean(),
    "posting:default:language": Nullable(t.String()),
    "posting:default:quote_policy": t.String({ description: "public, followers or nobody" }),
    "reading:expand:media": t.String({ description: "default, show_all or hide_all" }),
    "reading:expand:spoilers": t.Boolean(),
    "reading:autoplay:gifs": t.Boolean(),
  },
  { description: "Mastodon Preferences" },
);
export type PreferencesEntity = Static<typeof PreferencesSchema>;

export function presentPreferences(p: Preferences): PreferencesEntity {
  return {
    "posting:default:visibility": p.visibility,
    "posting:default:sensitive": p.sensitive,
    "posting:default:language": p.language,
    "posting:default:quote_policy": p.quotePolicy,
    "reading:expand:media": p.expandMedia,
    "reading:expand:spoilers": p.expandSpoilers,
    "reading:autoplay:gifs": p.autoplayGifs,
  };
}
