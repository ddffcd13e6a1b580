// GET /api/v1/statuses/:id/history and /source: the versions of a status (the original first; an unedited
// status has one, made from the record) and its source text, for whoever may see the status.
import type { Deps } from "../../deps.ts";
import { getMedia } from "../../store/media.ts";
import { getPoll } from "../../store/polls.ts";
import { statusEdits } from "../../store/status-edits.ts";
import { NotFound } from "../../lib/errors.ts";
import { cachedAccount } from "../accounts/read.ts";
import { statusVersion } from "./edit.ts";
import { visibleStatus } from "./read.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { StatusEditRecord, StatusRecord } from "../../model/statuses.ts";

export interface LoadedVersion {
  edit: StatusEditRecord;
  /** The attachments that still exist, with their descriptions as they were in this version. */
  media: MediaRecord[];
}

export interface LoadedHistory {
  viewerId: string | null;
  author: AccountRecord;
  versions: LoadedVersion[];
}

export function statusHistory(deps: Deps, viewerId: string | null, rawId: string): LoadedHistory {
  const { store } = deps;
  const status = visibleStatus(store, viewerId, rawId);
  const author = cachedAccount(store, status.accountId);
  if (!author) throw new NotFound();
  let edits = statusEdits(store, status.id);
  if (edits.length === 0) {
    const media = status.mediaIds.flatMap((id) => getMedia(store, id) ?? []);
    edits = [statusVersion(status, media, status.hasPoll ? (getPoll(store, status.id) ?? null) : null, status.createdAt)];
  }
  const versions = edits.map((edit) => ({
    edit,
    media: edit.mediaIds.flatMap((id, i) => {
      const record = getMedia(store, id);
      return record ? [{ ...record, description: edit.mediaDescriptions[i] ?? null }] : [];
    }),
  }));
  return { viewerId, author, versions };
}

/** GET /api/v1/statuses/:id/source: what its author typed. */
export function statusSource(deps: Deps, viewerId: string, rawId: string): StatusRecord {
  return visibleStatus(deps.store, viewerId, rawId);
}
