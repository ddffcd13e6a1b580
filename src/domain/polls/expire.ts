// polls.expire (a timer enqueued with the poll, due at its end): tells the local voters and the author that
// the poll ended (`poll` notifications from the author, as on Mastodon); a local poll's final results go out.
// Idempotent: the poll records that it told them, and a job for an end the poll no longer has (an edit changed
// it) does nothing.
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getPoll, pollVoterIds, putPoll } from "../../store/polls.ts";
import { getStatus } from "../../store/statuses.ts";
import { notify } from "../notifications/notify.ts";
import type { PollExpiry } from "./poll.ts";
import { POLL_RESULTS } from "../job-names.ts";
import type { PollResults } from "./results.ts";

export async function expirePoll(deps: { store: Store; jobs: JobEnqueuer }, job: PollExpiry): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const poll = getPoll(store, job.statusId);
    const status = getStatus(store, job.statusId);
    if (!poll || !status || status.deletedAt || poll.notifiedAt !== null || poll.expiresAt !== job.expiresAt) return;
    const now = Date.now();
    putPoll(store, { ...poll, notifiedAt: now });
    // The final results go out to other servers (results.ts).
    if (status.local) deps.jobs.enqueue(POLL_RESULTS, { statusId: status.id } satisfies PollResults);
    const recipients = [status.accountId, ...pollVoterIds(store, status.id)];
    for (const recipientId of recipients) {
      if (getAccount(store, recipientId)?.domain !== null) continue;
      notify(deps, { type: "poll", recipientId, fromAccountId: status.accountId, statusId: status.id }, now);
    }
  });
}
