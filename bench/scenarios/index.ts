// Every scenario `npm run bench` runs, in order. Add one file per scenario and list it here.
import type { Scenario } from "./types.ts";
import { verifyCredentials, verifyCredentialsRateLimited } from "./verify-credentials.ts";
import { getStatus, postStatus } from "./statuses.ts";
import { homeTimeline20, homeTimeline40 } from "./home-timeline.ts";
import { fanOut, type TimedCheck } from "./fan-out.ts";
import { homeMuted, publicOnlyMedia } from "./filtered-reads.ts";
import { homeKeptAmidWrites, homeRebuilt, homeTopRebuilt } from "./home-pages.ts";

export const SCENARIOS: Scenario[] = [verifyCredentials, verifyCredentialsRateLimited, postStatus, getStatus, homeTimeline20, homeTimeline40, publicOnlyMedia, homeMuted, homeRebuilt, homeTopRebuilt, homeKeptAmidWrites];

/** Timed operations (not request rates), run after the scenarios; each fails above its limit. */
export const TIMED_CHECKS: TimedCheck[] = [fanOut];
