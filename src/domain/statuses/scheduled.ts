// Scheduled statuses (POST /api/v1/statuses with scheduled_at, /api/v1/scheduled_statuses): the post is
// checked as posting would check it, stored with its attachments reserved, and published by the
// `scheduled_statuses.publish` timer job at its time (scheduled-publish.ts). Mastodon's limits: at least five
// minutes ahead (a time already past posts at once), 25 due on one (UTC) day, 300 waiting.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import {
  getScheduledStatus,
  pageScheduledStatuses,
  putScheduledStatus,
  removeScheduledStatus,
  scheduledTimesOf,
} from "../../store/scheduled-statuses.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { recordEvent } from "../events.ts";
import { checkAllowedMentions, composeText, createStatus, statusDraft, type NewStatusInput } from "./create.ts";
import { checkDirectQuote, quotingVisibility } from "../quotes/attach.ts";
import { SCHEDULED_PUBLISH } from "../job-names.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { ScheduledStatusRecord, StatusRecord } from "../../model/statuses.ts";

export const SCHEDULED_LIMITS = { minOffsetMs: 5 * 60_000, perDay: 25, total: 300 } as const;
/** A timer, not an event: posts a scheduled status at its time. */
export type ScheduledPublish = { id: string; scheduledAt: number };

const DAY_MS = 86_400_000;

/** The time asked for (ms), or 422 for what is not a date. */
function parseTime(raw: string): number {
  const text = raw.trim();
  const at = text.length <= 64 ? Date.parse(text) : NaN;
  if (!Number.isFinite(at)) throw new Unprocessable("Validation failed: Scheduled at is invalid");
  return at;
}

/** Inside a write or before it: 422 unless `at` is far enough ahead and within the account's limits. */
function checkSchedule(store: Store, accountId: string, at: number, now: number, except: string | null = null): void {
  if (at < now + SCHEDULED_LIMITS.minOffsetMs) throw new Unprocessable("Validation failed: Scheduled at The scheduled date must be in the future");
  const others = scheduledTimesOf(store, accountId).filter((row) => row.id !== except);
  if (others.length >= SCHEDULED_LIMITS.total) {
    throw new Unprocessable(`Validation failed: You have exceeded the limit of ${SCHEDULED_LIMITS.total} scheduled posts`);
  }
  const day = Math.floor(at / DAY_MS);
  if (others.filter((row) => Math.floor(row.at / DAY_MS) === day).length >= SCHEDULED_LIMITS.perDay) {
    throw new Unprocessable(`Validation failed: You have exceeded the limit of ${SCHEDULED_LIMITS.perDay} scheduled posts for that day`);
  }
}

/** Inside a write: the job that publishes `record` at its time. */
function enqueuePublish(deps: Pick<Deps, "jobs">, record: ScheduledStatusRecord, now: number): void {
  const job: ScheduledPublish = { id: record.id, scheduledAt: record.scheduledAt };
  deps.jobs.enqueue(SCHEDULED_PUBLISH, job, { delayMs: record.scheduledAt - now });
}

export type Posted = { status: StatusRecord; scheduled?: undefined } | { scheduled: ScheduledStatusRecord; status?: undefined };

/** POST /api/v1/statuses: a `scheduled_at` ahead schedules it; none, blank or past posts it now. */
export async function postOrSchedule(deps: Deps, viewer: UserViewer, input: NewStatusInput, scheduledAt: string | undefined): Promise<Posted> {
  const now = Date.now();
  const at = scheduledAt === undefined || scheduledAt.trim() === "" ? null : parseTime(scheduledAt);
  if (at === null || at <= now) return { status: await createStatus(deps, viewer, input) };
  const { store } = deps;
  const author = viewer.account;
  checkSchedule(store, author.id, at, now);
  const draft = statusDraft(deps, viewer, input);
  // Checked now, so that the client hears of a bad text at once rather than never.
  const { formatted } = composeText(deps, draft.text, draft.spoilerText, draft.mediaIds.length > 0 || !!draft.poll || !!draft.quoted);
  if (draft.quoted) checkDirectQuote(quotingVisibility(draft.visibility, draft.quoted), author.id, formatted.mentionIds, draft.quoted);
  // allowed_mentions[] is checked now: the scheduled record does not keep it.
  checkAllowedMentions(deps.store, formatted.mentionIds, draft.allowedMentionIds);
  const record: ScheduledStatusRecord = {
    v: 1,
    id: newId(now),
    accountId: author.id,
    scheduledAt: at,
    params: {
      text: draft.text,
      spoilerText: draft.spoilerText,
      sensitive: draft.sensitive || draft.spoilerText.trim() !== "",
      visibility: draft.visibility,
      language: draft.language,
      inReplyToId: draft.parent?.id ?? null,
      mediaIds: draft.mediaIds,
      poll: draft.poll ?? null,
      applicationId: draft.applicationId,
      quotedStatusId: draft.quoted?.id ?? null,
      quotePolicy: draft.quotePolicy,
    },
    createdAt: now,
  };
  const scheduled = await store.write(() => {
    checkSchedule(store, author.id, at, now);
    for (const id of record.params.mediaIds) {
      const media = getMedia(store, id);
      if (!media || media.statusId !== null) throw new Unprocessable(`Could not find media attachments with IDs: ${id}`);
      putMedia(store, { ...media, statusId: record.id, unattachedSince: null });
    }
    putScheduledStatus(store, record);
    enqueuePublish(deps, record, now);
    return record;
  });
  return { scheduled };
}

/** One of the viewer's scheduled statuses; 404 for anyone else's. */
export function ownScheduledStatus(store: Store, accountId: string, rawId: string): ScheduledStatusRecord {
  const id = normaliseId(rawId);
  const record = id ? getScheduledStatus(store, id) : undefined;
  if (!record || record.accountId !== accountId) throw new NotFound();
  return record;
}

export function scheduledStatusesOf(store: Store, accountId: string, query: PageQuery): ScheduledStatusRecord[] {
  return pageScheduledStatuses(store, accountId, query);
}

/** PUT /api/v1/scheduled_statuses/:id: a new time, under the same rules; the job for the old time does nothing. */
export async function reschedule(deps: Deps, viewer: UserViewer, rawId: string, scheduledAt: string | undefined): Promise<ScheduledStatusRecord> {
  const { store } = deps;
  const record = ownScheduledStatus(store, viewer.account.id, rawId);
  if (scheduledAt === undefined || scheduledAt.trim() === "") return record;
  const at = parseTime(scheduledAt);
  return store.write(() => {
    const now = Date.now();
    const current = ownScheduledStatus(store, viewer.account.id, record.id);
    checkSchedule(store, current.accountId, at, now, current.id);
    const moved = { ...current, scheduledAt: at };
    putScheduledStatus(store, moved);
    enqueuePublish(deps, moved, now);
    return moved;
  });
}

/** Inside a write: its reserved attachments are free again (and expire a day later unless posted). */
export function releaseMedia(deps: Pick<Deps, "store" | "jobs">, record: ScheduledStatusRecord, now: number): MediaRecord[] {
  const freed: MediaRecord[] = [];
  for (const id of record.params.mediaIds) {
    const media = getMedia(deps.store, id);
    if (!media || media.statusId !== record.id) continue;
    const free = { ...media, statusId: null, unattachedSince: now };
    putMedia(deps.store, free);
    recordEvent(deps, "media.detached", { mediaId: id, accountId: media.accountId }, "local", now);
    freed.push(free);
  }
  return freed;
}

/** DELETE /api/v1/scheduled_statuses/:id: it will never be published. */
export async function cancelScheduled(deps: Deps, viewer: UserViewer, rawId: string): Promise<void> {
  const { store } = deps;
  const record = ownScheduledStatus(store, viewer.account.id, rawId);
  await store.write(() => {
    const current = getScheduledStatus(store, record.id);
    if (!current) return;
    releaseMedia(deps, current, Date.now());
    removeScheduledStatus(store, current);
  });
}

/** The attachments a scheduled status shows (its reserved ones that still exist). */
export function scheduledMedia(store: Store, record: ScheduledStatusRecord): MediaRecord[] {
  return record.params.mediaIds.flatMap((id) => getMedia(store, id) ?? []);
}
