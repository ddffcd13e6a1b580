// Fetching remote media to keep it here (docs/media.md, "Remote media"): each attachment of a stored remote
// status, and each remote account's avatar and header, is fetched by a `remote` job grouped by the file's
// host, through lib/safe-fetch.ts (no private addresses unless allowed, redirects checked, a time budget) with
// the upload size limits, and kept by domain/media/remote-cache.ts. A domain whose block rejects media
// (`reject_media`, or a suspension) is never fetched from: its attachments are shown as links (`unknown`),
// its accounts' avatars and headers as the defaults. A status read whose copies were removed (or never
// fetched) queues them again, at most once an hour per attachment.
import { MEDIA_LIMITS, ACCOUNT_LIMITS } from "../domain/limits.ts";
import { cacheRemoteAttachment, cacheRemoteProfileImage } from "../domain/media/remote-cache.ts";
import { getAccount } from "../store/accounts.ts";
import { getMedia, putMedia } from "../store/media.ts";
import { getStatus } from "../store/statuses.ts";
import type { Store } from "../store/db.ts";
import type { FederationDeps } from "./context.ts";
import { fetchFile, mediaRejectedFrom, REFETCH_EVERY_MS } from "./remote-fetch.ts";
import { emojiFetchesDue, queueEmojiFetches } from "./remote-emojis.ts";
import { enqueueRemoteFetch, REMOTE_MEDIA_FETCH, REMOTE_PROFILE_IMAGE_FETCH } from "./remote-jobs.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** Attachments queued again by a read lately (main thread, bounded): media id → when. */
const refetched = new Map<string, number>();
const REMEMBERED = 10_000;

/** Inside a write: queues the fetch of a status's remote attachments; those of a rejected domain are marked. */
export function queueAttachmentFetches(deps: Pick<FederationDeps, "store" | "jobs">, status: Pick<StatusRecord, "mediaIds">): void {
  for (const mediaId of status.mediaIds) {
    const media = getMedia(deps.store, mediaId);
    if (!media?.remoteUrl || media.fileUrl || media.mediaRejected) continue;
    if (mediaRejectedFrom(deps.store, media.remoteUrl)) putMedia(deps.store, { ...media, mediaRejected: true, blurhash: null });
    else enqueueRemoteFetch(deps, REMOTE_MEDIA_FETCH, { mediaId }, media.remoteUrl);
  }
}

export async function fetchRemoteAttachment(deps: FederationDeps, { mediaId }: { mediaId: string }): Promise<void> {
  const media = getMedia(deps.store, mediaId);
  if (!media?.remoteUrl || media.fileUrl || media.mediaRejected || mediaRejectedFrom(deps.store, media.remoteUrl)) return;
  const limit = media.type === "image" ? MEDIA_LIMITS.imageSizeLimit : MEDIA_LIMITS.videoSizeLimit;
  const bytes = await fetchFile(deps.config, media.remoteUrl, limit);
  if (bytes) await cacheRemoteAttachment(deps, mediaId, media.remoteUrl, bytes);
}

/**
 * A remote actor stored again: its avatar and header as the record should hold them. An image whose URL did
 * not change keeps its copy here; a new one is its remote URL until fetched; none from a rejected domain.
 */
export function keptImages(store: Store, fresh: Pick<AccountRecord, "avatarUrl" | "headerUrl" | "uri">, existing?: AccountRecord): Partial<AccountRecord> {
  const rejected = mediaRejectedFrom(store, fresh.uri);
  const one = (remote: string | null, previousRemote: string | null | undefined, previous: string | null | undefined) =>
    rejected || !remote ? null : remote === previousRemote && previous ? previous : remote;
  return {
    avatarUrl: one(fresh.avatarUrl, existing?.avatarRemoteUrl, existing?.avatarUrl),
    headerUrl: one(fresh.headerUrl, existing?.headerRemoteUrl, existing?.headerUrl),
    avatarRemoteUrl: rejected ? null : fresh.avatarUrl,
    headerRemoteUrl: rejected ? null : fresh.headerUrl,
  };
}

/** Inside a write: queues the fetch of a remote account's avatar and header (still remote URLs) and emoji images. */
export function queueProfileImageFetches(deps: Pick<FederationDeps, "store" | "jobs">, account: AccountRecord): void {
  for (const kind of ["avatar", "header"] as const) {
    const url = kind === "avatar" ? account.avatarUrl : account.headerUrl;
    const remote = kind === "avatar" ? account.avatarRemoteUrl : account.headerRemoteUrl;
    if (url && url === remote) enqueueRemoteFetch(deps, REMOTE_PROFILE_IMAGE_FETCH, { accountId: account.id, kind, url }, url);
  }
  queueEmojiFetches(deps, (account.emojis ?? []).filter((emoji) => !emoji.remoteUrl));
}

export async function fetchRemoteProfileImage(deps: FederationDeps, job: { accountId: string; kind: "avatar" | "header"; url: string }): Promise<void> {
  const account = getAccount(deps.store, job.accountId);
  const current = job.kind === "avatar" ? account?.avatarUrl : account?.headerUrl;
  if (!account || current !== job.url || mediaRejectedFrom(deps.store, job.url)) return;
  const limit = job.kind === "avatar" ? ACCOUNT_LIMITS.avatarSizeLimit : ACCOUNT_LIMITS.headerSizeLimit;
  const bytes = await fetchFile(deps.config, job.url, limit);
  if (bytes) await cacheRemoteProfileImage(deps, account.id, job.kind, job.url, bytes);
}

/** A status read: its remote attachments and emoji images without a copy here are queued again (once an hour each at most). */
export function refetchOnRead(deps: Pick<FederationDeps, "store" | "jobs">, statuses: readonly StatusRecord[], now = Date.now()): void {
  // Most reads have nothing that could be remote: no lists are made for them (GET /api/v1/statuses/:id).
  if (statuses.every((s) => !s.reblogOfId && s.mediaIds.length === 0 && !s.emojis?.length)) return;
  const shown = statuses.map((s) => (s.reblogOfId ? (getStatus(deps.store, s.reblogOfId) ?? s) : s));
  const due = shown.flatMap((s) => s.mediaIds).filter((id) => {
    const media = getMedia(deps.store, id);
    if (!media?.remoteUrl || media.fileUrl || media.mediaRejected) return false;
    const last = refetched.get(id);
    return last === undefined || now - last >= REFETCH_EVERY_MS;
  });
  // Emoji images whose copies were removed, queued again as on Create (remote-emojis.ts).
  const emojis = shown.flatMap((s) => s.emojis ?? []);
  const emojisDue = emojis.length > 0 && emojiFetchesDue(deps, emojis, now);
  if (emojisDue) void deps.store.write(() => queueEmojiFetches(deps, emojis, now)).catch(() => {});
  if (due.length === 0) return;
  for (const id of due) {
    refetched.delete(id);
    refetched.set(id, now);
    if (refetched.size > REMEMBERED) refetched.delete(refetched.keys().next().value!);
  }
  void deps.store.write(() => queueAttachmentFetches(deps, { mediaIds: due })).catch(() => {});
}
