// Mastodon's old "timeline preview": whether visitors without an account see public posts. It is now the
// default of the four feed access settings (feed-access.ts), as Mastodon 4.5 migrated it: on makes them
// `public`, off `authenticated`. The operator's persisted setting (`warren settings timeline-preview on|off`)
// wins over WARREN_TIMELINE_PREVIEW.
import type { Deps } from "../../deps.ts";
import { getSetting, putSetting } from "../../store/settings.ts";
import { FEED_SETTINGS } from "../../model/instance.ts";

export function timelinePreview(deps: Pick<Deps, "store" | "config">): boolean {
  return getSetting<boolean>(deps.store, "timeline_preview") ?? deps.config.timelinePreview;
}

/** Also sets the four feed settings, as Mastodon's migration from timeline_preview did. */
export async function setTimelinePreview(deps: Deps, on: boolean): Promise<void> {
  await deps.store.write(() => {
    putSetting(deps.store, "timeline_preview", on);
    for (const name of FEED_SETTINGS) putSetting(deps.store, name, on ? "public" : "authenticated");
  });
}
