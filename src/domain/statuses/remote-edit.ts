// An author's Update of its remote status (federation/inbound-interactions.ts reads the Note as a draft): it
// changes everything the Note carries, as Mastodon's ActivityPub::ProcessStatusUpdateService: text, content
// warning, sensitivity, language, mentions, hashtags, custom emojis, attachments (kept when the same file comes
// with the same description and focus, replaced otherwise) and poll (counts refreshed; changed options start
// it afresh). Versions are kept as for a local edit (edit.ts): the first edit stores the original too. Newly
// mentioned local accounts get a mention notification; `status.updated` (origin "remote") is recorded. An Update
// without `updated`, or not newer than the stored version, changes nothing, except a poll's counts (Mastodon's poll-only Updates).
import type { Deps } from "../../deps.ts";
import { getMedia, putMedia } from "../../store/media.ts";
import { getPoll } from "../../store/polls.ts";
import { putStatusEdit, statusEdits } from "../../store/status-edits.ts";
import { getStatus, putStatus } from "../../store/statuses.ts";
import { recordEvent } from "../events.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { putRemotePoll } from "../polls/remote.ts";
import { statusVersion } from "./edit.ts";
import { putRemoteMedia, type RemoteAttachment, type RemoteStatusDraft } from "./remote.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { StatusRecord } from "../../model/statuses.ts";

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether the stored attachments are those the draft describes, in order. */
function sameAttachments(media: MediaRecord[], attachments: RemoteAttachment[]): boolean {
  return media.length === attachments.length && media.every((m, i) => {
    const a = attachments[i]!;
    return m.remoteUrl === a.url && m.description === a.description && m.focus?.x === a.focus?.x && m.focus?.y === a.focus?.y;
  });
}

/** Inside the write: the status's attachments after the edit (the old ones detached when they changed). */
function applyAttachments(deps: Deps, status: StatusRecord, before: MediaRecord[], draft: RemoteStatusDraft, now: number): string[] {
  if (sameAttachments(before, draft.attachments)) return status.mediaIds;
  for (const record of before) {
    putMedia(deps.store, { ...record, statusId: null, unattachedSince: now });
    recordEvent(deps, "media.detached", { mediaId: record.id, accountId: record.accountId }, "remote", now);
  }
  return putRemoteMedia(deps, status.accountId, status.id, draft.attachments, now);
}

/** `editedAt`: the Note's `updated` (null: none, so no edit: Mastodon's implicit, poll-only update). */
export async function editRemoteStatus(deps: Deps, status: StatusRecord, draft: RemoteStatusDraft, editedAt: number | null): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const fresh = getStatus(store, status.id);
    if (!fresh || fresh.deletedAt) return;
    const now = Date.now();
    if (editedAt === null || (fresh.editedAt ?? fresh.createdAt) >= editedAt) {
      // Not an edit: a Question's Update that only refreshes its counts.
      if (fresh.hasPoll && draft.poll && putRemotePoll(deps, fresh.id, draft.poll, now)) {
        recordEvent(deps, "status.updated", { statusId: fresh.id, accountId: fresh.accountId }, "remote", now);
      }
      return;
    }
    const mediaBefore = fresh.mediaIds.flatMap((id) => getMedia(store, id) ?? []);
    const pollBefore = fresh.hasPoll ? (getPoll(store, fresh.id) ?? null) : null;
    if (statusEdits(store, fresh.id).length === 0) putStatusEdit(store, statusVersion(fresh, mediaBefore, pollBefore, fresh.createdAt));
    const mediaIds = applyAttachments(deps, fresh, mediaBefore, draft, now);
    const pollAfter = putRemotePoll(deps, fresh.id, draft.poll, now);
    const saved: StatusRecord = {
      ...fresh,
      content: draft.content,
      spoilerText: draft.spoilerText,
      sensitive: draft.sensitive,
      language: draft.language,
      mentionIds: draft.mentionIds,
      tags: draft.tags,
      mediaIds,
      hasPoll: pollAfter !== null,
      editedAt,
    };
    if (draft.emojis.length > 0) saved.emojis = draft.emojis;
    else delete saved.emojis;
    putStatus(store, saved);
    const media = sameList(mediaIds, fresh.mediaIds) ? mediaBefore : mediaIds.flatMap((id) => getMedia(store, id) ?? []);
    putStatusEdit(store, statusVersion(saved, media, pollAfter, editedAt));
    for (const mentionedId of saved.mentionIds) {
      if (!fresh.mentionIds.includes(mentionedId) && canSeeStatus(store, mentionedId, saved)) {
        notify(deps, { type: "mention", recipientId: mentionedId, fromAccountId: saved.accountId, statusId: saved.id }, now);
      }
    }
    recordEvent(deps, "status.updated", { statusId: saved.id, accountId: saved.accountId }, "remote", now);
  });
}
