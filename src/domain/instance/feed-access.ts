// Mastodon 4.5's feed access settings: who may read the live feeds (the public timeline) and the topic feeds
// (hashtag timelines), for local and for remote posts separately. `public`: anyone, also without a token;
// `authenticated`: signed-in users; `disabled`: only staff whose role may `view_feeds`. Defaults as Mastodon's
// config/settings.yml (all `public`), or all `authenticated` where WARREN_TIMELINE_PREVIEW=false or
// `warren settings timeline-preview off` says so (as Mastodon's migration from its old timeline_preview did).
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { getSetting, putSetting } from "../../store/settings.ts";
import { roleCan } from "../accounts/roles.ts";
import type { Origin } from "../timelines/policy.ts";
import { timelinePreview } from "./timeline-preview.ts";
import type { RoleName } from "../../model/accounts.ts";
import type { FeedSetting } from "../../model/instance.ts";

export const FEED_ACCESS_VALUES = ["public", "authenticated", "disabled"] as const;
export type FeedAccess = (typeof FEED_ACCESS_VALUES)[number];
export type FeedKind = "live" | "topic";

type Settings = Pick<Deps, "store" | "config">;

export function feedAccess(deps: Settings, name: FeedSetting): FeedAccess {
  return getSetting<FeedAccess>(deps.store, name) ?? (timelinePreview(deps) ? "public" : "authenticated");
}

export async function setFeedAccess(deps: Deps, name: FeedSetting, value: FeedAccess): Promise<void> {
  // Mastodon's admin form offers local hashtag feeds only public or authenticated.
  if (name === "local_topic_feed_access" && value === "disabled") throw new Unprocessable("Validation failed: local_topic_feed_access cannot be disabled");
  await deps.store.write(() => putSetting(deps.store, name, value));
}

/** The two settings of a kind of feed, as /api/v2/instance's `configuration.timelines_access` shows them. */
export function feedAccessOf(deps: Settings, kind: FeedKind): { local: FeedAccess; remote: FeedAccess } {
  return { local: feedAccess(deps, `local_${kind}_feed_access`), remote: feedAccess(deps, `remote_${kind}_feed_access`) };
}

/** Who reads: nobody (no token or an app's), a user, and whether the user's role may view disabled feeds. */
export interface FeedReader {
  signedIn: boolean;
  role: RoleName | null;
}

function mayRead(access: FeedAccess, reader: FeedReader): boolean {
  if (access === "public") return true;
  if (access === "authenticated") return reader.signedIn;
  return reader.signedIn && roleCan(reader.role, "view_feeds");
}

/**
 * Mastodon's Api::V1::Timelines::PublicController/TagController#require_auth? (422 for an anonymous request
 * of a feed that is not public) and PublicFeed/TagFeed's narrowing: the part the reader may not see is left
 * out, and a request for that part alone is answered with nothing (null).
 */
export function readableOrigin(deps: Settings, kind: FeedKind, asked: Origin, reader: FeedReader): Origin | null {
  const { local, remote } = feedAccessOf(deps, kind);
  const needsUser = asked === "local" ? local !== "public" : asked === "remote" ? remote !== "public" : local !== "public" || remote !== "public";
  if (needsUser && !reader.signedIn) throw new Unprocessable("This method requires an authenticated user");
  const localOnly = asked === "local" || !mayRead(remote, reader);
  const remoteOnly = asked === "remote" || !mayRead(local, reader);
  if ((localOnly && !mayRead(local, reader)) || (remoteOnly && !mayRead(remote, reader))) return null;
  return localOnly ? "local" : remoteOnly ? "remote" : asked;
}
