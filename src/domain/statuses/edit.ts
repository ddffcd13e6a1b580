// PUT /api/v1/statuses/:id: the author edits text, content warning, sensitivity, language, attachments (and
// their descriptions and focal points) and poll, as Mastodon's UpdateStatusService does. The first edit
// stores the original as a version, every edit stores the new one (store/status-edits.ts), and the write
// records `status.updated`: streams get `status.update`, those who reblogged it an `update` notification.
import type { Deps } from "../../deps.ts";
import { NotPermitted, Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import { getPoll, putPoll, removePoll } from "../../store/polls.ts";
import { putStatusEdit, statusEdits } from "../../store/status-edits.ts";
import { getStatus, putStatus } from "../../store/statuses.ts";
import { getCard, removeCard } from "../../store/statuses-cards.ts";
import { newId } from "../../lib/ids.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { recordEvent } from "../events.ts";
import { STATUS_LIMITS } from "../limits.ts";
import { checkDescription, parseFocus } from "../media/attributes.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { pollDraft, type PollDraft, type PollInput } from "../polls/input.ts";
import { startPoll, type PollExpiry } from "../polls/poll.ts";
import { POLL_EXPIRY } from "../job-names.ts";
import { composeText, language } from "./create.ts";
import { visibleStatus } from "./read.ts";
import { setQuotePolicy } from "../quotes/manage.ts";
import { withQuoteFieldsOf } from "../quotes/policy.ts";
import { withQuoteFallback } from "../quotes/attach.ts";
import { discardEditThumbnails, discardReplacedThumbnails, type NewThumbnail, prepareEditThumbnails } from "./edit-thumbnails.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { PollRecord, QuotePolicy, StatusEditRecord, StatusRecord } from "../../model/statuses.ts";

export interface MediaAttributesInput {
  id: string;
  description?: string;
  focus?: string;
  /** A new thumbnail: an uploaded file or a data: URI (edit-thumbnails.ts). */
  thumbnail?: unknown;
}

/** What the client sent; a field left out keeps its value, except the poll, which an edit without one removes. */
export interface EditInput {
  status?: string;
  spoilerText?: string;
  sensitive?: boolean;
  language?: string;
  mediaIds?: string[];
  mediaAttributes?: MediaAttributesInput[];
  poll?: PollInput;
  /** quote_approval_policy: who may quote it (a change of it alone is no edit) */
  quotePolicy?: QuotePolicy;
}

/** The attachments after the edit: the status's own, or the author's uploads on no status, processed. */
function resolveMedia(store: Store, status: StatusRecord, rawIds: readonly string[] | undefined): MediaRecord[] {
  const ids = rawIds === undefined ? status.mediaIds : [...new Set(rawIds)];
  if (ids.length > STATUS_LIMITS.maxMediaAttachments) throw new Unprocessable(`Cannot attach more than ${STATUS_LIMITS.maxMediaAttachments} files`);
  const found: MediaRecord[] = [];
  const missing: string[] = [];
  for (const raw of ids) {
    const id = normaliseId(raw);
    const record = id ? getMedia(store, id) : undefined;
    const usable = record && record.accountId === status.accountId && (record.statusId === status.id || (record.statusId === null && record.state !== "failed"));
    if (usable) found.push(record);
    else missing.push(raw);
  }
  if (missing.length) throw new Unprocessable(`Could not find media attachments with IDs: ${missing.join(", ")}`);
  if (found.some((m) => m.state !== "ready")) throw new Unprocessable("Cannot attach files that have not finished processing. Try again in a moment!");
  if (found.length > 1 && found.some((m) => m.type === "video" || m.type === "audio" || m.type === "gifv")) {
    throw new Unprocessable("Cannot attach a video to a post that already contains images");
  }
  return found;
}

/** The attachments with the descriptions and focal points asked for (ids not on the status are ignored, as on Mastodon). */
function withAttributes(media: MediaRecord[], attributes: readonly MediaAttributesInput[], thumbnails: Map<string, NewThumbnail>): MediaRecord[] {
  return media.map((record) => {
    const asked = attributes.find((a) => normaliseId(a.id) === record.id);
    if (!asked) return record;
    const thumbnail = thumbnails.get(record.id);
    return {
      ...record,
      description: asked.description === undefined ? record.description : checkDescription(asked.description),
      focus: asked.focus === undefined ? record.focus : parseFocus(asked.focus),
      ...(thumbnail && { thumbnailUrl: thumbnail.url, blurhash: thumbnail.blurhash }),
    };
  });
}

/** A version of the status as it is in `status` with `media` and `poll` (stored, or the only one of an unedited status). */
export function statusVersion(status: StatusRecord, media: MediaRecord[], poll: PollRecord | null, createdAt: number): StatusEditRecord {
  return {
    v: 1,
    id: newId(createdAt),
    statusId: status.id,
    accountId: status.accountId,
    text: status.text,
    content: status.content,
    spoilerText: status.spoilerText,
    sensitive: status.sensitive,
    mediaIds: media.map((m) => m.id),
    mediaDescriptions: media.map((m) => m.description),
    pollOptions: poll ? poll.options : null,
    createdAt,
  };
}

const sameAttributes = (a: MediaRecord, b: MediaRecord | undefined) =>
  !!b && a.id === b.id && a.description === b.description && a.focus?.x === b.focus?.x && a.focus?.y === b.focus?.y &&
  a.thumbnailUrl === b.thumbnailUrl;

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Inside the write: the poll after the edit. Same options and kind keep their votes; others start afresh. */
function applyPoll(deps: Deps, status: StatusRecord, before: PollRecord | null, draft: PollDraft | null, now: number): PollRecord | null {
  if (!draft) {
    if (before) removePoll(deps.store, status.id);
    return null;
  }
  if (!before || !sameList(before.options, draft.options) || before.multiple !== draft.multiple) return startPoll(deps, status.id, draft, now);
  const expiresAt = now + draft.expiresInSeconds * 1000;
  const kept: PollRecord = { ...before, hideTotals: draft.hideTotals, expiresAt, notifiedAt: null };
  putPoll(deps.store, kept);
  const expiry: PollExpiry = { statusId: status.id, expiresAt };
  deps.jobs.enqueue(POLL_EXPIRY, expiry, { delayMs: expiresAt - now });
  return kept;
}

function pollUnchanged(before: PollRecord | null, draft: PollDraft | null): boolean {
  if (!before || !draft) return before === null && draft === null;
  // Resending a poll as it is (clients do, with a fresh expires_in) changes nothing but its end.
  return sameList(before.options, draft.options) && before.multiple === draft.multiple && before.hideTotals === draft.hideTotals;
}

export async function editStatus(deps: Deps, viewer: UserViewer, rawId: string, input: EditInput): Promise<StatusRecord> {
  const status = visibleStatus(deps.store, viewer.account.id, rawId);
  if (status.accountId !== viewer.account.id || status.reblogOfId) throw new NotPermitted();
  const mediaBefore = status.mediaIds.flatMap((id) => getMedia(deps.store, id) ?? []);
  const resolved = resolveMedia(deps.store, status, input.mediaIds);
  const thumbnails = await prepareEditThumbnails(deps, resolved, input.mediaAttributes ?? []);
  try {
    const saved = await applyEdit(deps, viewer, rawId, input, withAttributes(resolved, input.mediaAttributes ?? [], thumbnails));
    await discardReplacedThumbnails(deps, mediaBefore, thumbnails);
    return saved;
  } catch (error) {
    await discardEditThumbnails(deps, thumbnails);
    throw error;
  }
}

async function applyEdit(deps: Deps, viewer: UserViewer, rawId: string, input: EditInput, media: MediaRecord[]): Promise<StatusRecord> {
  const { store } = deps;
  const author = viewer.account;
  const status = visibleStatus(store, author.id, rawId);
  const pollBefore = status.hasPoll ? (getPoll(store, status.id) ?? null) : null;
  const poll = input.poll === undefined ? null : pollDraft(input.poll);
  const mediaBefore = status.mediaIds.flatMap((id) => getMedia(store, id) ?? []);
  if (poll && media.length > 0) throw new Unprocessable("Validation failed: A post cannot have both a poll and media attachments");
  const spoiler = input.spoilerText ?? status.spoilerText;
  // A quote may go without text (domain/quotes).
  const { text, spoilerText, formatted } = composeText(deps, input.status ?? status.text, spoiler, media.length > 0 || poll !== null || !!status.quote);
  const sensitive = input.sensitive === undefined && input.spoilerText === undefined ? status.sensitive : (input.sensitive ?? false) || spoiler.trim() !== "";
  const quoted = status.quote ? getStatus(store, status.quote.statusId) : undefined;
  const edited: StatusRecord = {
    ...status,
    text,
    content: quoted && !quoted.deletedAt ? withQuoteFallback(formatted.html, text, quoted) : formatted.html,
    spoilerText,
    sensitive,
    language: input.language === undefined ? status.language : language(input.language, status.language),
    mentionIds: formatted.mentionIds,
    tags: formatted.tags,
    mediaIds: media.map((m) => m.id),
  };
  const unchanged =
    edited.text === status.text && edited.spoilerText === status.spoilerText && edited.sensitive === status.sensitive &&
    edited.language === status.language && sameList(edited.mediaIds, status.mediaIds) &&
    media.every((m, i) => sameAttributes(m, mediaBefore[i])) && pollUnchanged(pollBefore, poll);
  if (unchanged) return input.quotePolicy === undefined ? status : setQuotePolicy(deps, author.id, rawId, input.quotePolicy);

  return store.write(() => {
    const current = getStatus(store, status.id);
    if (!current || current.deletedAt) throw new Unprocessable("Validation failed: The status was deleted meanwhile");
    const now = Date.now();
    if (statusEdits(store, status.id).length === 0) putStatusEdit(store, statusVersion(current, mediaBefore, pollBefore, current.createdAt));
    // Attachments taken off are freed as by a redraft: reusable for a day, then removed.
    for (const record of mediaBefore) {
      if (edited.mediaIds.includes(record.id)) continue;
      putMedia(store, { ...record, statusId: null, unattachedSince: now });
      recordEvent(deps, "media.detached", { mediaId: record.id, accountId: record.accountId }, "local", now);
    }
    for (const record of media) {
      const stored = getMedia(store, record.id);
      if (!stored || (stored.statusId !== null && stored.statusId !== status.id)) throw new Unprocessable(`Could not find media attachments with IDs: ${record.id}`);
      if (stored.statusId === null || !sameAttributes(record, stored)) putMedia(store, { ...record, statusId: status.id, unattachedSince: null });
    }
    const pollAfter = applyPoll(deps, current, pollBefore, poll, now);
    // Counters come from the record as it is now, read inside the write.
    const counted: StatusRecord = { ...current, ...edited, repliesCount: current.repliesCount, reblogsCount: current.reblogsCount,
      favouritesCount: current.favouritesCount, hasPoll: pollAfter !== null, editedAt: now };
    const saved = withQuoteFieldsOf(counted, current, input.quotePolicy);
    putStatus(store, saved);
    putStatusEdit(store, statusVersion(saved, media, pollAfter, now));
    for (const mentionedId of saved.mentionIds) {
      if (!status.mentionIds.includes(mentionedId) && canSeeStatus(store, mentionedId, saved)) {
        notify(deps, { type: "mention", recipientId: mentionedId, fromAccountId: author.id, statusId: saved.id }, now);
      }
    }
    // The card follows the first link (none with attachments, as when posting): fetched again once it changed.
    const firstLink = saved.mediaIds.length === 0 ? formatted.firstUrl : null;
    const card = getCard(store, saved.id);
    const refetch = firstLink !== null && card?.url !== firstLink;
    if (card && (firstLink === null || refetch)) removeCard(store, saved.id);
    recordEvent(deps, "status.updated", { statusId: saved.id, accountId: author.id, firstLink: refetch ? firstLink : null }, "local", now);
    return saved;
  });
}
