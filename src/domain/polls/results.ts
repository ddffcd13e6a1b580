// A local poll's results going out (Mastodon's DistributePollUpdateWorker): after a vote, local or from another
// server, its counts are sent as an Update of the Question once WARREN_POLL_UPDATE_DELAY_MS has passed, so the
// votes of those minutes share one Update; and once more when it ends (expire.ts). The POLL_RESULTS timer's
// handler (jobs/handlers/index.ts) sends it through federation/poll-votes-out.ts.
import { POLL_RESULTS } from "../job-names.ts";
import type { Config } from "../../config.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { PollRecord, StatusRecord } from "../../model/statuses.ts";

export type PollResults = { statusId: string };

/** Inside the write that counts a vote: the poll to store, with its results Update due unless one is already. */
export function scheduleResults(deps: { config: Config; jobs: JobEnqueuer }, status: StatusRecord, poll: PollRecord, now: number): PollRecord {
  if (!status.local || (poll.resultsDueAt ?? null) !== null) return poll;
  const payload: PollResults = { statusId: status.id };
  deps.jobs.enqueue(POLL_RESULTS, payload, { delayMs: deps.config.pollUpdateDelayMs });
  return { ...poll, resultsDueAt: now + deps.config.pollUpdateDelayMs };
}
