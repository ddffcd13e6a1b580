// What a newly stored remote status needs fetched in the background: its missing parent (a chain of
// `remote.thread_fetch` jobs, thread-fetch.ts), its attachments (remote-media.ts) and emoji images (remote-emojis.ts). Apart from threads.ts and
// thread-fetch.ts, which both use it, so they need not import each other both ways.
import type { FederationDeps } from "./context.ts";
import { enqueueRemoteFetch, REMOTE_THREAD_FETCH } from "./remote-jobs.ts";
import { queueAttachmentFetches } from "./remote-media.ts";
import { emojiFetchesDue, queueEmojiFetches } from "./remote-emojis.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** How many ancestors of one reply are fetched at most, one job each. */
export const THREAD_DEPTH = 20;

/**
 * After a remote status is stored or edited: its missing parent (if `depth` allows: 0 after an edit), its
 * attachments and its emoji images not kept yet are queued.
 */
export async function queueStatusFetches(deps: Pick<FederationDeps, "store" | "jobs">, status: StatusRecord, depth = THREAD_DEPTH): Promise<void> {
  const parentUri = status.inReplyToUri;
  const parentMissing = !!parentUri && !status.inReplyToId && depth > 0;
  const emojis = status.emojis ?? [];
  if (!parentMissing && status.mediaIds.length === 0 && !emojiFetchesDue(deps, emojis)) return;
  await deps.store.write(() => {
    if (parentMissing) enqueueRemoteFetch(deps, REMOTE_THREAD_FETCH, { statusId: status.id, depth }, parentUri);
    queueAttachmentFetches(deps, status);
    queueEmojiFetches(deps, emojis);
  });
}
