// Background fetches from other servers (docs/federation.md, "What Warren fetches in the background"): a
// remote account's collections (account-completion.ts), a thread's missing ancestors and a status's replies
// (thread-fetch.ts), remote media to keep here (remote-media.ts, remote-emojis.ts). Each is a job in the `remote` lane grouped by the host it fetches from, so one slow or
// hostile server holds at most two of the lane's places (src/jobs/lanes.ts, docs/jobs.md "Fair lanes"), and
// every fetch goes through the document loader's guard (lib/safe-fetch.ts limits).
import {
  REMOTE_ACCOUNT_COMPLETE, REMOTE_ACCOUNT_REFRESH, REMOTE_EMOJI_FETCH, REMOTE_MEDIA_FETCH, REMOTE_PROFILE_IMAGE_FETCH, REMOTE_REPLIES_FETCH, REMOTE_STATUS_FETCH,
  REMOTE_THREAD_FETCH,
} from "../domain/job-names.ts";
import type { FederationDeps } from "./context.ts";


/** Inside a write: queues a fetch job for `url`'s host. */
export function enqueueRemoteFetch(deps: Pick<FederationDeps, "jobs">, type: string, payload: unknown, url: string, delayMs = 0): void {
  let group: string;
  try {
    group = new URL(url).host;
  } catch {
    return;
  }
  deps.jobs.enqueue(type, payload, { lane: "remote", group, maxAttempts: 3, ...(delayMs > 0 ? { delayMs } : {}) });
}

export { REMOTE_ACCOUNT_COMPLETE, REMOTE_ACCOUNT_REFRESH, REMOTE_EMOJI_FETCH, REMOTE_MEDIA_FETCH, REMOTE_PROFILE_IMAGE_FETCH, REMOTE_REPLIES_FETCH, REMOTE_STATUS_FETCH, REMOTE_THREAD_FETCH };
