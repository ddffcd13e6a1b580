// scheduled_statuses.publish (a timer job due at a scheduled status's time): posts it through postStatus and
// removes the scheduled status in the same write, so it is published once however often the job runs; a job
// for a time it no longer has (rescheduled) or for one deleted meanwhile does nothing.
import type { Deps } from "../../deps.ts";
import { ApiError } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { getAccount } from "../../store/accounts.ts";
import { getScheduledStatus, removeScheduledStatus } from "../../store/scheduled-statuses.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { postStatus } from "./create.ts";
import { stillQuotable } from "../quotes/attach.ts";
import { releaseMedia, type ScheduledPublish } from "./scheduled.ts";

class AlreadyGone extends Error {}

export async function publishScheduled(deps: Deps, job: ScheduledPublish): Promise<void> {
  const { store } = deps;
  const record = getScheduledStatus(store, job.id);
  if (!record || record.scheduledAt !== job.scheduledAt) return;
  const author = getAccount(store, record.accountId);
  // Its attachments were reserved for it; free, they can be attached as any upload is (checked again there).
  const media = await store.write(() => {
    const current = getScheduledStatus(store, job.id);
    return current ? releaseMedia(deps, current, Date.now()) : [];
  });
  const discard = () =>
    store.write(() => {
      const current = getScheduledStatus(store, job.id);
      if (current) removeScheduledStatus(store, current);
    });
  if (!author || author.suspended) return void (await discard());
  const { params } = record;
  // A reply whose parent is gone (or hidden from its author by now) is posted on its own, as Mastodon does.
  const parent = params.inReplyToId ? (getStatus(store, params.inReplyToId) ?? null) : null;
  const visibleParent = parent && !parent.deletedAt && canSeeStatus(store, author.id, parent) ? parent : null;
  // So is a quote of a status gone, or no longer quotable by its author.
  const quoted = params.quotedStatusId ? stillQuotable(store, author.id, params.quotedStatusId) : null;
  try {
    await postStatus(deps, author, {
      text: params.text,
      spoilerText: params.spoilerText,
      sensitive: params.sensitive,
      visibility: params.visibility,
      language: params.language,
      parent: visibleParent,
      mediaIds: params.mediaIds.filter((id) => media.some((m) => m.id === id)),
      applicationId: params.applicationId,
      poll: params.poll,
      quoted,
      quotePolicy: params.quotePolicy,
      inWrite: () => {
        const current = getScheduledStatus(store, job.id);
        if (!current || current.scheduledAt !== job.scheduledAt) throw new AlreadyGone();
        removeScheduledStatus(store, current);
      },
    });
  } catch (error) {
    if (error instanceof AlreadyGone) return;
    // What can no longer be posted (its attachments gone, say) would fail every retry: it is dropped.
    if (!(error instanceof ApiError)) throw error;
    log.warn("scheduled status dropped", { id: job.id, reason: error.message });
    await discard();
  }
}
