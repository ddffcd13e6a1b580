// Every scenario `npm run bench` runs, in order. Add one file per scenario and list it here.
import type { Scenario } from "./types.ts";
import { verifyCredentials } from "./verify-credentials.ts";
import { getStatus, postStatus } from "./statuses.ts";
import { homeTimeline20, homeTimeline40 } from "./home-timeline.ts";

export const SCENARIOS: Scenario[] = [verifyCredentials, postStatus, getStatus, homeTimeline20, homeTimeline40];
