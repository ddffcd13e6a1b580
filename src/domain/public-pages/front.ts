// What the front page (/) shows: the instance's name, description and rules, how to join (the registration
// mode), and, when the timeline preview is on, its newest public local posts (not replies to others).
import type { Deps } from "../../deps.ts";
import type { RegistrationMode } from "../../config.ts";
import { instanceDescription } from "../instance/info.ts";
import { registrationMode } from "../instance/registrations.ts";
import { instanceRules } from "../instance/rules.ts";
import { feedAccess } from "../instance/feed-access.ts";
import { loadStatuses } from "../statuses/load.ts";
import { publicTimeline } from "../timelines/read.ts";
import type { RuleRecord } from "../../model/instance.ts";
import type { LoadedStatuses } from "../statuses/loaded.ts";

/** Posts on the front page. */
export const FRONT_PAGE_POSTS = 10;

export interface FrontPage {
  description: string;
  rules: RuleRecord[];
  registrations: RegistrationMode;
  /** null when visitors may not read the local live feed (feed-access.ts). */
  recent: LoadedStatuses | null;
}

export function frontPage(deps: Deps): FrontPage {
  const recent = feedAccess(deps, "local_live_feed_access") === "public"
    ? loadStatuses(deps, null, publicTimeline(deps.store, null, { origin: "local", onlyMedia: false }, { limit: FRONT_PAGE_POSTS }))
    : null;
  return { description: instanceDescription(deps).text, rules: instanceRules(deps), registrations: registrationMode(deps), recent };
}
