// Mastodon's "timeline preview": whether visitors without an account see public posts (the front page's
// recent posts, and the public and hashtag timelines through the API). The operator's persisted setting
// (`warren settings timeline-preview on|off`) wins over WARREN_TIMELINE_PREVIEW.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { getSetting, putSetting } from "../../store/settings.ts";

export function timelinePreview(deps: Pick<Deps, "store" | "config">): boolean {
  return getSetting<boolean>(deps.store, "timeline_preview") ?? deps.config.timelinePreview;
}

export async function setTimelinePreview(deps: Deps, on: boolean): Promise<void> {
  await deps.store.write(() => putSetting(deps.store, "timeline_preview", on));
}

/** Public and hashtag timelines without a signed-in user: Mastodon's 422 when the preview is off. */
export function assertTimelinePreview(deps: Pick<Deps, "store" | "config">, signedIn: boolean): void {
  if (!signedIn && !timelinePreview(deps)) throw new Unprocessable("This method requires an authenticated user");
}
