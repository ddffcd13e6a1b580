// Remote media kept here (docs/media.md, "Remote media"): the files of other servers' attachments, avatars
// and headers, once fetched (federation/remote-media.ts), are stored like local ones — an image processed as an
// upload is (upright, no metadata, a preview, a blurhash), a video or audio file kept as sent, an avatar or
// header re-encoded as local ones — and served from /system/. The record keeps the original URL
// (`remoteUrl`, `avatarRemoteUrl`, `headerRemoteUrl`); until the copy exists, and after the operator removed it
// (`warren media remove`, the WARREN_MEDIA_CACHE_DAYS timer), the API gives that original URL.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { getMedia, mediaIdsAfter, putMedia } from "../../store/media.ts";
import { accountIdsAfter } from "../../store/accounts-counters.ts";
import { deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import { sniffUpload } from "../../media/sniff.ts";
import { encodeRemoteProfileImage, type ProfileImageKind } from "../accounts/profile-images.ts";
import { processStill, RejectedUpload } from "./files.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { MediaRecord } from "../../model/media.ts";
import { removeRemoteEmojiCopies } from "./remote-emojis.ts";

interface CacheDeps {
  store: Store;
  config: Config;
}

/** Extensions of video and audio files kept as sent: those the file server serves (media/storage.ts). */
const KEPT_AS_SENT = new Set(["mp4", "webm", "mp3", "ogg"]);

/** What a remote attachment's copy adds to its record, or null when the bytes are not media we take. */
async function storeAttachmentFiles(config: Config, media: MediaRecord, bytes: Uint8Array): Promise<Partial<MediaRecord> | null> {
  const sniffed = await sniffUpload(new Blob([bytes]));
  if (!sniffed) return null;
  if (sniffed.kind === "image") {
    try {
      const files = await processStill(config, media.id, bytes);
      return { ...files, meta: { ...media.meta, ...files.meta }, blurhash: media.blurhash ?? files.blurhash };
    } catch (error) {
      if (error instanceof RejectedUpload) return null;
      throw error;
    }
  }
  if (!KEPT_AS_SENT.has(sniffed.extension)) return null;
  const fileUrl = await saveMediaFile(config, ["media_attachments", "original", media.id], sniffed.extension, bytes);
  const type = sniffed.kind === "audio" ? "audio" : media.type === "gifv" ? "gifv" : "video";
  return { type, fileUrl, contentType: sniffed.mime, fileSize: bytes.byteLength };
}

/** Keeps the fetched bytes of remote attachment `mediaId` (fetched from `remoteUrl`); false if not taken. */
export async function cacheRemoteAttachment(deps: CacheDeps, mediaId: string, remoteUrl: string, bytes: Uint8Array): Promise<boolean> {
  const media = getMedia(deps.store, mediaId);
  if (!media || media.remoteUrl !== remoteUrl || media.fileUrl || media.mediaRejected) return false;
  const files = await storeAttachmentFiles(deps.config, media, bytes);
  if (!files) return false;
  const kept = await deps.store.write(() => {
    const current = getMedia(deps.store, mediaId);
    if (!current || current.remoteUrl !== remoteUrl || current.fileUrl) return false;
    putMedia(deps.store, { ...current, ...files, remoteCachedAt: Date.now() });
    return true;
  });
  // Deleted meanwhile, or fetched twice: the files no record points to go.
  if (!kept) await Promise.all([deleteMediaFile(deps.config, files.fileUrl ?? null), deleteMediaFile(deps.config, files.previewUrl ?? null)]);
  return kept;
}

const FIELDS = {
  avatar: { local: "avatarUrl", remote: "avatarRemoteUrl", folder: "avatars" },
  header: { local: "headerUrl", remote: "headerRemoteUrl", folder: "headers" },
} as const;

/** Keeps the fetched avatar or header of a remote account, if its record still names `remoteUrl`. */
export async function cacheRemoteProfileImage(deps: CacheDeps, accountId: string, kind: ProfileImageKind, remoteUrl: string, bytes: Uint8Array): Promise<boolean> {
  const field = FIELDS[kind];
  const image = await encodeRemoteProfileImage(kind, bytes);
  if (!image) return false;
  const path = await saveMediaFile(deps.config, ["accounts", field.folder, accountId], image.extension, image.data);
  const kept = await deps.store.write(() => {
    const account = getAccount(deps.store, accountId);
    if (!account || account.domain === null || account[field.remote] !== remoteUrl || account[field.local] !== remoteUrl) return false;
    putAccount(deps.store, { ...account, [field.local]: path, imagesCachedAt: Date.now() });
    return true;
  });
  if (!kept) await deleteMediaFile(deps.config, path);
  return kept;
}

/** Is this a path of a copy kept here (not a remote URL)? */
export const isKeptCopy = (url: string | null | undefined): url is string => !!url && url.startsWith("/system/");

/**
 * Removes the copies of remote media fetched before `before`: attachments go back to their remote URL (a read
 * fetches them again), avatars and headers too; emoji copies go (media/remote-emojis.ts). Files are deleted
 * after the records stop naming them. Returns how many attachments, accounts and emoji images were cleared.
 */
export async function removeRemoteCopies(deps: CacheDeps, before: number, onProgress?: (done: number) => void): Promise<{ attachments: number; accounts: number; emojis: number }> {
  let attachments = 0;
  for (let after: string | null = null, ids: string[]; (ids = mediaIdsAfter(deps.store, after, 500)).length > 0; after = ids.at(-1)!) {
    const stale = ids.map((id) => getMedia(deps.store, id)).filter((m): m is MediaRecord => !!m?.remoteUrl && !!m.fileUrl && (m.remoteCachedAt ?? 0) < before);
    if (stale.length === 0) continue;
    const files = await deps.store.write(() => {
      const paths: (string | null)[] = [];
      for (const media of stale) {
        const current = getMedia(deps.store, media.id);
        if (!current?.fileUrl || (current.remoteCachedAt ?? 0) >= before) continue;
        paths.push(current.fileUrl, current.previewUrl);
        const { remoteCachedAt: _dropped, ...rest } = current;
        putMedia(deps.store, { ...rest, fileUrl: null, previewUrl: null });
      }
      return paths;
    });
    await Promise.all(files.map((path) => deleteMediaFile(deps.config, path)));
    attachments += files.length / 2;
    onProgress?.(attachments);
  }
  return { attachments, accounts: await removeProfileCopies(deps, before), emojis: await removeRemoteEmojiCopies(deps, before) };
}

async function removeProfileCopies(deps: CacheDeps, before: number): Promise<number> {
  let accounts = 0;
  const cached = (a: AccountRecord | undefined): a is AccountRecord =>
    !!a && a.domain !== null && (a.imagesCachedAt ?? 0) < before && (isKeptCopy(a.avatarUrl) || isKeptCopy(a.headerUrl));
  for (let after: string | null = null, ids: string[]; (ids = accountIdsAfter(deps.store, after, 500)).length > 0; after = ids.at(-1)!) {
    const stale = ids.map((id) => getAccount(deps.store, id)).filter(cached);
    if (stale.length === 0) continue;
    const files = await deps.store.write(() => {
      const paths: string[] = [];
      for (const { id } of stale) {
        const account = getAccount(deps.store, id);
        if (!cached(account)) continue;
        const next = { ...account };
        for (const field of Object.values(FIELDS)) {
          const path = account[field.local];
          if (isKeptCopy(path)) {
            paths.push(path);
            next[field.local] = account[field.remote] ?? null;
          }
        }
        putAccount(deps.store, next);
        accounts++;
      }
      return paths;
    });
    await Promise.all(files.map((path) => deleteMediaFile(deps.config, path)));
  }
  return accounts;
}
